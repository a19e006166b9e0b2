package dev.gpugen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.inventory.Ec2InstanceSource;
import dev.gpugen.inventory.Ec2StandIn;
import dev.gpugen.inventory.Ec2StandIn.Instance;
import dev.gpugen.inventory.Fleet;
import dev.gpugen.inventory.StandIns;
import dev.gpugen.testing.RealToolsTest;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * gpugen up and down against stand-ins: EC2 is the local EC2 stand-in (the real Query protocol on
 * 127.0.0.1) and terraform, ansible-galaxy, ansible and ansible-playbook are one stand-in script on
 * PATH that appends its name, folder and arguments to a log and fails when told to. The tests
 * assert the exact sequence of commands, the wait and its progress, the stop at a failing step with
 * its exit code, the resume, and the refusal when a tool is missing.
 */
@RealToolsTest
class UpDownCommandTest {
  private static final String SPEC =
      """
      apiVersion: gpugen/v1
      kind: GpuCluster
      metadata:
        name: upfleet
      cloud:
        provider: aws
        region: us-east-1
      network:
        sshIngressCidrs: []
      pools:
        - name: h100
          instanceType: p5.48xlarge
          count: 2
      software:
        driver: "580.95.05"
        cuda: "12.8"
      kernel:
        sysctl:
          vm.max_map_count: "262144"
          kernel.numa_balancing: "0"
      """;

  /** One script for every tool: logs "tool|cwd|args", fails with FAKE_FAIL=<tool>:<word>:<code>. */
  private static final String STAND_IN =
      """
      #!/bin/sh
      tool=$(basename "$0")
      printf '%s|%s|%s\\n' "$tool" "$PWD" "$*" >> "$STAND_IN_LOG"
      echo "$tool stand-in ran"
      case "$FAKE_FAIL" in
        "$tool":*)
          word=$(echo "$FAKE_FAIL" | cut -d: -f2); code=$(echo "$FAKE_FAIL" | cut -d: -f3)
          case " $* " in *" $word "*) echo "$tool: failing as told" >&2; exit "$code";; esac;;
      esac
      exit 0
      """;

  @TempDir Path tmp;
  private Ec2StandIn ec2;
  private Path bin;
  private Path log;
  private Path spec;
  private Path out;

  @BeforeEach
  void setUp() throws Exception {
    ec2 = Ec2StandIn.start();
    bin = Files.createDirectories(tmp.resolve("bin"));
    log = tmp.resolve("calls.log");
    Path script = bin.resolve("stand-in");
    Files.writeString(script, STAND_IN, StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    for (String tool : List.of("terraform", "ansible-galaxy", "ansible", "ansible-playbook")) {
      Files.createSymbolicLink(bin.resolve(tool), script);
    }
    spec = Files.writeString(tmp.resolve("cluster.yaml"), SPEC);
    out = tmp.resolve("render");
  }

  @AfterEach
  void tearDown() {
    ec2.close();
  }

  record Run(int exit, String out, String err) {}

  private Map<String, String> env(String path, String... more) {
    Map<String, String> env = new HashMap<>();
    env.put("PATH", path + ":/usr/bin:/bin");
    env.put("STAND_IN_LOG", log.toString());
    env.put("GPUGEN_EC2_ENDPOINT", ec2.endpoint().toString());
    env.put("GPUGEN_API_CALL_TIMEOUT_SECONDS", "5");
    env.put("GPUGEN_MAX_ATTEMPTS", "1");
    env.put("AWS_ACCESS_KEY_ID", Ec2StandIn.ACCESS_KEY_ID);
    env.put("AWS_SECRET_ACCESS_KEY", "secret");
    env.put("AWS_EC2_METADATA_DISABLED", "true");
    for (int i = 0; i + 1 < more.length; i += 2) {
      env.put(more[i], more[i + 1]);
    }
    return env;
  }

  private Run run(Object command, String... args) {
    StringWriter o = new StringWriter();
    StringWriter e = new StringWriter();
    int exit =
        new CommandLine(command)
            .setExecutionExceptionHandler(new Failures())
            .setOut(new PrintWriter(o))
            .setErr(new PrintWriter(e))
            .execute(args);
    return new Run(exit, o.toString(), e.toString());
  }

  private Deploy.Context context(Map<String, String> env, Duration waitLimit) {
    return new Deploy.Context(
        env,
        config -> new Ec2InstanceSource(config, StandIns.CREDENTIALS),
        Duration.ofMillis(200),
        waitLimit);
  }

  private Run up(Map<String, String> env, Duration waitLimit) {
    return run(
        new UpCommand(context(env, waitLimit)),
        spec.toString(),
        "-o",
        out.toString(),
        "--auto-approve");
  }

  private static Instance node(int n) {
    return Instance.of(
        Fleet.id(n),
        "p5.48xlarge",
        "us-east-1a",
        Fleet.tags("upfleet", "", "h100", "upfleet-h100-" + n));
  }

  private List<String> calls() throws Exception {
    return Files.exists(log) ? Files.readAllLines(log) : List.of();
  }

  private List<String> fullSequence() {
    String tf = out.resolve("terraform").toString();
    String ansible = out.resolve("ansible").toAbsolutePath().toString();
    String cwd = Path.of("").toAbsolutePath().toString();
    return List.of(
        "terraform|" + cwd + "|-chdir=" + tf + " init -input=false",
        "terraform|" + cwd + "|-chdir=" + tf + " apply -input=false -auto-approve",
        "ansible-galaxy|" + ansible + "|collection install -r requirements.yml",
        "ansible|"
            + ansible
            + "|gpu_nodes -i gpugen-inventory -m ansible.builtin.wait_for_connection -a timeout=600",
        "ansible-playbook|" + ansible + "|-i gpugen-inventory site.yml");
  }

  @Test
  void upRunsEveryStepInOrderAndWaitsForTheNodesWithProgress() throws Exception {
    ec2.add(node(0));
    ScheduledExecutorService later = Executors.newSingleThreadScheduledExecutor();
    try {
      // The second node comes up while gpugen up waits: once EC2 has answered the first poll.
      later.scheduleWithFixedDelay(
          () -> {
            if (ec2.requests() > 0) {
              // The first answer went out well before this (the stand-in answers in ms).
              try {
                Thread.sleep(150);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              ec2.add(node(1));
              throw new IllegalStateException("added: stop repeating");
            }
          },
          50,
          50,
          TimeUnit.MILLISECONDS);
      Run r = up(env(bin.toString()), Duration.ofSeconds(60));
      assertEquals(0, r.exit(), r.toString());
      assertEquals(fullSequence(), calls());
      assertTrue(r.out().startsWith("rendered " + out + ": "), r.out());
      assertTrue(Files.isRegularFile(out.resolve("terraform/ssm.tf")), "rendered before running");
      int waitStep = r.err().indexOf("step 3/6: wait until every node of the spec is running");
      int one = r.err().indexOf("1/2 nodes ready");
      int two = r.err().indexOf("2/2 nodes ready");
      int galaxy = r.err().indexOf("step 4/6: (cd ");
      assertTrue(waitStep >= 0 && waitStep < one && one < two && two < galaxy, r.err());
      // Each command is printed before it runs (its output follows).
      assertTrue(
          r.err().contains("step 2/6: terraform -chdir=" + out.resolve("terraform") + " apply"),
          r.err());
      assertTrue(r.out().indexOf("terraform stand-in ran") > 0, r.out());
      assertTrue(r.err().endsWith("gpugen up: done\n"), r.err());
    } finally {
      later.shutdownNow();
    }
  }

  @Test
  void anEksClusterGetsItsKubeconfigAfterApplyAndBeforeAnsible() throws Exception {
    Files.createSymbolicLink(bin.resolve("aws"), bin.resolve("stand-in"));
    Files.writeString(
        spec,
        SPEC
            + "kubernetes:\n"
            + "  distribution: eks\n"
            + "  version: \"1.33\"\n"
            + "  endpointAccess: private\n");
    ec2.add(node(0)).add(node(1));
    Run r = up(env(bin.toString()), Duration.ofSeconds(60));
    assertEquals(0, r.exit(), r.toString());
    List<String> expected = new java.util.ArrayList<>(fullSequence());
    String cwd = Path.of("").toAbsolutePath().toString();
    expected.add(
        2,
        "aws|"
            + cwd
            + "|eks update-kubeconfig --region us-east-1 --name upfleet --kubeconfig "
            + out.resolve("ansible/.state/kubeconfig"));
    assertEquals(expected, calls());
    // The kubeconfig's folder is one the render keeps out of Git.
    assertTrue(
        Files.readString(out.resolve("ansible/.gitignore"))
            .lines()
            .anyMatch(l -> l.equals("/.state/")),
        Files.readString(out.resolve("ansible/.gitignore")));
  }

  @Test
  void withoutEksThereIsNoAwsCliStep() throws Exception {
    ec2.add(node(0)).add(node(1));
    Run r = up(env(bin.toString()), Duration.ofSeconds(60));
    assertEquals(0, r.exit(), r.toString());
    assertTrue(calls().stream().noneMatch(c -> c.startsWith("aws|")), calls().toString());
  }

  /** The progress README shows is what a run prints: each of its lines is one a run printed. */
  @Test
  void theReadmesProgressOutputIsWhatUpPrints() throws Exception {
    ec2.add(node(0)).add(node(1));
    Run r = up(env(bin.toString()), Duration.ofSeconds(10));
    assertEquals(0, r.exit(), r.toString());
    String readme = Files.readString(Path.of("README.md"));
    int from = readme.indexOf("$ gpugen up cluster.yaml\n");
    int to = readme.indexOf("gpugen up: done\n", from);
    assertTrue(from > 0 && to > from, "README shows a gpugen up run");
    List<String> shown =
        readme.substring(from, to + "gpugen up: done".length()).lines().skip(1).toList();
    String printed = r.out() + r.err();
    String tf = out.resolve("terraform").toString();
    String ansible = out.resolve("ansible").toString();
    for (String line : shown) {
      if (line.equals("...")) {
        continue;
      }
      String asRun =
          line.replace("roles-generated/llm-train/terraform", tf)
              .replace("roles-generated/llm-train/ansible", ansible)
              .replace("roles-generated/llm-train", out.toString())
              .replace(" -input=false\n", " -input=false -auto-approve\n")
              .replaceAll("^\\d+/16 nodes ready$", "2/2 nodes ready")
              .replaceAll("^rendered (\\S+): \\d+ written, \\d+ unchanged", "rendered $1: ");
      if (asRun.endsWith(" apply -input=false")) {
        asRun += " -auto-approve";
      }
      if (asRun.startsWith("rendered ")) {
        asRun = asRun.substring(0, asRun.indexOf(": ") + 2);
      }
      assertTrue(
          printed.contains(asRun),
          "README line \"" + line + "\" as run: " + asRun + "\n" + printed);
    }
  }

  @Test
  void aFailingStepStopsTheRunWithItsExitCodeAndARerunResumes() throws Exception {
    ec2.add(node(0)).add(node(1));
    Run failed = up(env(bin.toString(), "FAKE_FAIL", "terraform:apply:7"), Duration.ofSeconds(10));
    assertEquals(7, failed.exit(), failed.toString());
    assertEquals(fullSequence().subList(0, 2), calls(), "nothing after the failing apply");
    assertTrue(failed.err().contains("terraform: failing as told"), failed.err());
    assertTrue(
        failed
            .err()
            .contains("step 2/6 failed: terraform exited 7; fix the cause and run gpugen up again"),
        failed.err());
    assertFalse(failed.err().contains("nodes ready"), failed.err());

    Files.delete(log);
    Run again = up(env(bin.toString()), Duration.ofSeconds(10));
    assertEquals(0, again.exit(), again.toString());
    assertEquals(fullSequence(), calls());
    assertTrue(again.err().contains("2/2 nodes ready"), again.err());

    Files.delete(log);
    Run playbook =
        up(env(bin.toString(), "FAKE_FAIL", "ansible-playbook:site.yml:2"), Duration.ofSeconds(10));
    assertEquals(2, playbook.exit(), playbook.toString());
    assertEquals(fullSequence(), calls());
  }

  @Test
  void nodesThatNeverComeUpEndTheWaitWithExit3() throws Exception {
    ec2.add(node(0));
    Run r = up(env(bin.toString()), Duration.ofSeconds(1));
    assertEquals(3, r.exit(), r.toString());
    assertTrue(r.err().contains("1/2 nodes ready after 1 s"), r.err());
    assertEquals(fullSequence().subList(0, 2), calls(), "no Ansible step after a failed wait");
  }

  @Test
  void aMissingToolIsRefusedBeforeAnythingRunsOrIsWritten() throws Exception {
    Files.delete(bin.resolve("ansible-playbook"));
    Map<String, String> env = env(bin.toString());
    env.put("PATH", bin.toString());
    Run r = up(env, Duration.ofSeconds(10));
    assertEquals(3, r.exit(), r.toString());
    assertTrue(
        r.err().contains("gpugen up needs ansible-playbook (https://docs.ansible.com/"), r.err());
    assertTrue(r.err().contains("nothing was run"), r.err());
    assertEquals(List.of(), calls());
    assertFalse(Files.exists(out), "nothing rendered");
  }

  @Test
  void downDestroysWithTheRenderedStateAndPassesAFailureOn() throws Exception {
    Files.createDirectories(out.resolve("terraform"));
    String tf = out.resolve("terraform").toString();
    String cwd = Path.of("").toAbsolutePath().toString();
    Run down =
        run(
            new DownCommand(context(env(bin.toString()), Duration.ofSeconds(1))),
            spec.toString(),
            "-o",
            out.toString());
    assertEquals(0, down.exit(), down.toString());
    assertEquals(
        List.of(
            "terraform|" + cwd + "|-chdir=" + tf + " init -input=false",
            "terraform|" + cwd + "|-chdir=" + tf + " destroy -input=false"),
        calls(),
        "without --auto-approve Terraform asks");

    Files.delete(log);
    Run failed =
        run(
            new DownCommand(
                context(
                    env(bin.toString(), "FAKE_FAIL", "terraform:destroy:5"),
                    Duration.ofSeconds(1))),
            spec.toString(),
            "-o",
            out.toString(),
            "--auto-approve");
    assertEquals(5, failed.exit(), failed.toString());
    assertEquals(
        List.of(
            "terraform|" + cwd + "|-chdir=" + tf + " init -input=false",
            "terraform|" + cwd + "|-chdir=" + tf + " destroy -input=false -auto-approve"),
        calls());
  }

  @Test
  void downWithoutARenderSaysWhereItLooked() {
    Run r =
        run(
            new DownCommand(context(env(bin.toString()), Duration.ofSeconds(1))),
            spec.toString(),
            "-o",
            tmp.resolve("nowhere").toString());
    assertEquals(3, r.exit(), r.toString());
    assertTrue(r.err().contains("no render at " + tmp.resolve("nowhere/terraform")), r.err());
  }
}
