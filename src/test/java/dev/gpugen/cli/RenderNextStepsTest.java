package dev.gpugen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.Cli;
import dev.gpugen.TestSpecs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * gpugen render ends with this spec's next steps (credentials, Terraform in the render's folder,
 * the collections, the playbook), --quiet keeps the one-line summary, and two renders into one
 * folder are refused before anything is written.
 */
class RenderNextStepsTest {
  @TempDir Path tmp;

  private static void inOrder(String text, String... parts) {
    int at = -1;
    for (String p : parts) {
      int i = text.indexOf(p, at + 1);
      assertTrue(i > at, "\"" + p + "\" after position " + at + " in:\n" + text);
      at = i;
    }
  }

  @Test
  void anAwsRenderPrintsTheStepsInTheOrderToRunThem() {
    Path out = tmp.resolve("h100");
    Cli r = Cli.run("render", "examples/aws-h100/cluster.yaml", "-o", out.toString());
    assertEquals(0, r.exit(), r.toString());
    inOrder(
        r.out(),
        "rendered " + out + ": ",
        "Next steps:",
        "AWS credentials for us-east-1",
        // The collections first, as gpugen up installs them: a Galaxy failure leaves nothing
        // billing.
        "cd "
            + out.resolve("ansible")
            + " && ansible-galaxy collection install -r requirements.yml",
        "terraform -chdir=" + out.resolve("terraform") + " init",
        "terraform -chdir=" + out.resolve("terraform") + " apply",
        "aws eks update-kubeconfig --region us-east-1 --name h100-training-prod --kubeconfig "
            + out.resolve("ansible/.state/kubeconfig"),
        "ansible-playbook -i gpugen-inventory site.yml",
        // The reference example's EKS endpoint is private: where plays 03-05 must run.
        "the EKS API endpoint is private: run plays 03-05 (and kubectl) from a machine in the VPC",
        "connection ssh: the private key of key pair",
        "gpugen up examples/aws-h100/cluster.yaml");
  }

  /**
   * After a render with --templates the steps are offered, gpugen up is not: it renders with the
   * built-in templates and would replace this render's files.
   */
  @Test
  void aRenderWithItsOwnTemplatesOffersTheStepsButNotGpugenUp() throws Exception {
    Path templates = Files.createDirectories(tmp.resolve("templates/ansible"));
    Files.copy(
        Path.of("templates/ansible/02-container-runtime.yml"),
        templates.resolve("02-container-runtime.yml"));
    Path out = tmp.resolve("custom");
    Cli r =
        Cli.run(
            "render",
            "examples/static-baremetal/cluster.yaml",
            "-o",
            out.toString(),
            "--templates",
            templates.getParent().toString());
    assertEquals(0, r.exit(), r.toString());
    assertTrue(r.out().contains("(cd " + out.resolve("ansible") + " && ansible-playbook"), r.out());
    assertFalse(r.out().contains("gpugen up examples/"), r.out());
    assertTrue(
        r.out().contains("gpugen up renders with the built-in templates, not --templates"),
        r.out());
  }

  /**
   * A spec or folder whose path starts with "-" is offered as ./-name, so that up and cd read it as
   * a path.
   */
  @Test
  void aSpecNamedLikeAnOptionIsOfferedAsAPath() throws Exception {
    String steps =
        NextSteps.of(
            TestSpecs.plan(
                TestSpecs.parse(
                    Files.readString(Path.of("examples/static-baremetal/cluster.yaml")))),
            new NextSteps.Invocation(
                Path.of("--templates=x.yaml"), Optional.of(Path.of("-out")), false),
            Path.of("-out"),
            false);
    assertTrue(steps.contains("Or: gpugen up ./--templates=x.yaml -o ./-out\n"), steps);
    // cd would read a folder that starts with "-" as an option, too.
    assertTrue(steps.contains("(cd ./-out/ansible && ansible-playbook site.yml)"), steps);
  }

  /** A spec without a private EKS endpoint gets no such line. */
  @Test
  void onlyAPrivateEndpointSaysWhereThePlaysRun() {
    Cli r = Cli.run("render", "examples/aws-mixed/cluster.yaml", "-o", tmp.resolve("m").toString());
    assertEquals(0, r.exit(), r.toString());
    assertFalse(r.out().contains("endpoint is private"), r.out());
  }

  @Test
  void theSsmConnectionNamesWhatTheControllerNeeds() {
    Cli r =
        Cli.run(
            "render",
            "examples/aws-dev-prod/cluster.yaml",
            "--env",
            "dev",
            "-o",
            tmp.resolve("dev").toString());
    assertEquals(0, r.exit(), r.toString());
    assertTrue(
        r.out().contains("connection ssm: the AWS CLI, AWS's session-manager-plugin"), r.out());
    assertTrue(r.out().contains("gpugen up examples/aws-dev-prod/cluster.yaml --env dev"), r.out());
  }

  @Test
  void staticHostsGetNoTerraformSteps() {
    Cli r =
        Cli.run(
            "render",
            "examples/static-baremetal/cluster.yaml",
            "-o",
            tmp.resolve("metal").toString());
    assertEquals(0, r.exit(), r.toString());
    assertFalse(r.out().contains("terraform"), r.out());
    inOrder(
        r.out(), "Next steps:", "ansible-galaxy collection install", "ansible-playbook site.yml");
  }

  @Test
  void quietKeepsTheOneLineSummary() {
    for (String flag : List.of("--quiet", "-q")) {
      Path out = tmp.resolve("quiet" + flag.length());
      Cli r = Cli.run("render", "examples/aws-h100/cluster.yaml", "-o", out.toString(), flag);
      assertEquals(0, r.exit(), r.toString());
      assertTrue(
          r.out()
              .matches(
                  "rendered "
                      + java.util.regex.Pattern.quote(out.toString())
                      + ": \\d+ written, 0 unchanged, 0 deleted\n"),
          r.out());
    }
  }

  @Test
  void severalRendersInOneRunPrintNoSteps() {
    Cli r = Cli.run("render", "--check", "--all-envs", "examples/aws-h100/cluster.yaml");
    assertFalse(r.out().contains("Next steps"), r.out());
  }

  @Test
  void twoSpecsIntoOneFolderAreRefusedNamingBothBeforeAnythingIsWritten() throws Exception {
    String spec =
        Files.readString(Path.of("examples/aws-h100/cluster.yaml"))
            .replace("name: h100-training", "name: fd-shared-folder-test");
    assertTrue(spec.contains("fd-shared-folder-test"), "the example names its cluster");
    Path a = Files.writeString(tmp.resolve("a.yaml"), spec);
    Path b = Files.writeString(tmp.resolve("b.yaml"), spec.replace("count: 16", "count: 8"));
    Cli r = Cli.run("render", a.toString(), b.toString());
    assertEquals(2, r.exit(), r.toString());
    assertTrue(
        r.err()
            .contains(a + " and " + b + " both render into roles-generated/fd-shared-folder-test"),
        r.err());
    assertFalse(Files.exists(Path.of("roles-generated/fd-shared-folder-test")), "nothing written");
    assertEquals("", r.out());
  }
}
