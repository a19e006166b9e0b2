package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import dev.gpugen.Cli;
import dev.gpugen.Golden;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A spec rendered for the Ansible tests: the spec is copied beside the output folder first, so that
 * the generated headers name it {@code ../spec.yaml} wherever the test runs.
 *
 * @param name the case name (also the golden folder under {@code ansible-golden/})
 * @param ansible the rendered {@code ansible/} folder
 */
record RenderedCase(String name, Path ansible) {
  /**
   * The reference spec (examples/aws-h100), and a two-pool spec with a different driver per pool
   * (whose golden tree is src/test/resources/golden/two-pool/expected, checked by
   * RenderGoldenTest), and a static bare-metal spec whose static inventory.yml replaces the EC2
   * one, a GKE spec (whose inventory.yml lists the cluster and its node pools, for the
   * cluster-level plays 03-05), the two-pool spec with GitOps on (play 03 only checks the ArgoCD
   * Applications), a pull-mode spec (with a local inventory per pool), and the three-pool example
   * (A100, H100, L4; a bandwidth threshold per pool).
   */
  static final List<String> CASES =
      List.of(
          "reference",
          "two-pool",
          "aws-mixed",
          "static-baremetal",
          "static-kubeadm",
          "static-kubeadm-ha",
          "static-infiniband",
          "aws-kubeadm",
          "gcp-gke",
          "aws-gitops",
          "aws-pull",
          "aws-airgapped");

  /** Files under {@code ansible/} that the inventory tests cover: its launcher and settings. */
  static final List<String> NOT_OURS = List.of("gpugen-inventory", "gpugen-inventory.json");

  static Path spec(String name) {
    return switch (name) {
      case "reference" -> Golden.repo().resolve("examples/aws-h100/cluster.yaml");
      // The three-pool example with a bandwidth threshold per pool (A100 200, H100 350 GB/s).
      case "aws-mixed" -> Golden.repo().resolve("examples/aws-mixed/cluster.yaml");
      default -> Golden.repo().resolve("src/test/resources/golden/" + name + "/spec.yaml");
    };
  }

  /** Renders case {@code name} into {@code dir} (which must not exist yet or be empty). */
  static RenderedCase render(String name, Path dir) throws IOException {
    Files.createDirectories(dir);
    Path spec = Files.copy(spec(name), dir.resolve("spec.yaml"));
    Path out = dir.resolve("out");
    Cli cli = Cli.run("render", spec.toString(), "-o", out.toString());
    if (cli.exit() != 0) {
      fail("gpugen render " + spec(name) + " failed\n" + cli);
    }
    return new RenderedCase(name, out.resolve("ansible"));
  }

  /** The rendered {@code ansible/} folder but the inventory files, by relative path. */
  SortedMap<String, byte[]> files() throws IOException {
    SortedMap<String, byte[]> out = new TreeMap<>();
    Golden.read(ansible)
        .forEach(
            (path, bytes) -> {
              if (!NOT_OURS.contains(path)) {
                out.put(path, bytes);
              }
            });
    return out;
  }

  /** Fails the test unless {@code tool} is an executable on the PATH. */
  static void requireTool(String tool) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, tool))) {
        return;
      }
    }
    fail(tool + " is not installed (not on PATH): run scripts/install-test-deps as root");
  }

  static void assertExit(int want, dev.gpugen.testing.RealTools.Result r) {
    assertEquals(
        want,
        r.exitCode(),
        () -> String.join(" ", r.command()) + " exited " + r.exitCode() + ":\n" + r.output());
  }
}
