package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.testing.ChrootTest;
import dev.gpugen.testing.RealTools;
import dev.gpugen.testing.TestRoot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Play 00's DOCA-OFED (software.docaOfed) for real in a Debian 12 root through the chroot
 * connection: NVIDIA's versioned DOCA repository is a stand-in on 127.0.0.1 in its layout
 * (linux.mellanox.com/public/repo/doca/RELEASE/OS/ARCH/, a flat repository signed with its own key;
 * the DOCA-Host install guide's online repository), holding a doca-ofed package that installs
 * /usr/src/ofa_kernel as DOCA's mlnx-ofed-kernel sources do. The role adds the key and the pinned
 * release's repository and installs doca-ofed; a second run changes nothing; play 04 then loads
 * nvidia-peermem at boot, which it does only where OFED is installed.
 */
@ChrootTest
class DocaOfedInstallTest {
  private static final Duration RUN_TIMEOUT = Duration.ofMinutes(8);
  private static final String REPO = "/public/repo/doca/3.2.1/ubuntu22.04/x86_64";

  @TempDir Path tmp;

  @Test
  @Timeout(value = 20, unit = TimeUnit.MINUTES)
  void docaOfedOfThePinnedReleaseIsInstalledBeforeTheDriver() throws Exception {
    RenderedCase.requireTool("ansible-playbook");
    Path dir = RenderedCase.render("static-infiniband", tmp.resolve("render")).ansible();
    Path root = TestRoot.fresh(tmp.resolve("root"));
    List<AptRepositoryStandIn.Deb> debs =
        List.of(
            new AptRepositoryStandIn.Deb(
                "doca-ofed",
                "3.2.1-044000",
                "amd64",
                "",
                Map.of("usr/src/ofa_kernel/default/Module.symvers", "stand-in\n")));
    try (AptRepositoryStandIn doca = new AptRepositoryStandIn(tmp, REPO, "doca", debs)) {
      Files.writeString(root.resolve("etc/apt/sources.list"), "");
      String base =
          doca.url().substring(0, doca.url().length() - "/3.2.1/ubuntu22.04/x86_64".length());
      List<String> extra =
          List.of(
              "-e",
              "doca_ofed_repo_base=" + base,
              "-e",
              "doca_ofed_key_url=" + doca.url() + "/Release.key",
              "-e",
              "doca_ofed_os=ubuntu22.04",
              "-e",
              "doca_ofed_arch=x86_64");
      RealTools.Result first =
          play(dir, root, "00-prerequisites.yml", extra, "--tags", "doca_ofed");
      RenderedCase.assertExit(0, first);
      assertTrue(RealTools.recap(first.output(), "hgx-01").get("changed") > 0, first.output());
      assertEquals(
          "# Managed by Ansible (gpugen role doca_ofed): DOCA 3.2.1.\n"
              + "deb [signed-by=/etc/apt/keyrings/gpugen-doca.asc] "
              + doca.url()
              + "/ ./\n",
          Files.readString(root.resolve("etc/apt/sources.list.d/gpugen-doca.list")));
      assertTrue(
          Files.readString(root.resolve("var/lib/dpkg/status"))
              .contains("Package: doca-ofed\nStatus: install ok installed\n"));
      assertTrue(Files.exists(root.resolve("usr/src/ofa_kernel/default/Module.symvers")));
      assertTrue(
          doca.requests().stream()
              .anyMatch(r -> r.startsWith("GET " + REPO + "/") && r.endsWith("/InRelease")),
          doca.requests()::toString);

      RealTools.Result second =
          play(dir, root, "00-prerequisites.yml", extra, "--tags", "doca_ofed");
      RenderedCase.assertExit(0, second);
      assertEquals(0, RealTools.recap(second.output(), "hgx-01").get("changed"), second.output());

      // With OFED's ib_core there, play 04 loads nvidia-peermem at boot.
      RealTools.Result four =
          play(dir, root, "04-network-tuning.yml", List.of(), "--skip-tags", "network,hardware");
      RenderedCase.assertExit(0, four);
      assertEquals(
          "# Managed by Ansible (gpugen role nccl_network).\nnvidia-peermem\n",
          Files.readString(root.resolve("etc/modules-load.d/nvidia-peermem.conf")));
    } finally {
      TestRoot.delete(root);
    }
  }

  private RealTools.Result play(
      Path dir, Path root, String playbook, List<String> extra, String... args) throws Exception {
    Path inventory =
        Files.writeString(
            tmp.resolve("inventory.yml"),
            "all:\n  children:\n    gpu_nodes:\n      hosts:\n        hgx-01: {ansible_connection: community.general.chroot, ansible_host: \""
                + root
                + "\"}\n    pool_h100:\n      hosts:\n        hgx-01:\n");
    List<String> cmd =
        new java.util.ArrayList<>(List.of("ansible-playbook", "-i", inventory.toString()));
    cmd.addAll(extra);
    cmd.addAll(List.of(args));
    cmd.add(playbook);
    return RealTools.run(dir, RUN_TIMEOUT, RealTools.YAML_INVENTORY, cmd);
  }
}
