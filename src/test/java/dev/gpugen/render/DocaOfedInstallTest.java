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
 * release's repository and installs doca-ofed, builds the driver's DKMS modules (built before DOCA,
 * so nvidia-peermem lacks its peer-memory API) again, then (live-host steps, against stand-ins of
 * DOCA's openibd, of dkms and of modprobe) unloads the nvidia-peermem a host with the driver
 * already has and restarts openibd onto DOCA's modules, and enables openibd.service for every boot;
 * a second run changes nothing and restarts nothing; play 04 then loads nvidia-peermem at boot,
 * which it does only where OFED is installed.
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
                Map.of(
                    "usr/src/ofa_kernel/default/Module.symvers",
                    "stand-in\n",
                    // DOCA's init script (with its LSB header, which update-rc.d reads when
                    // systemctl enables the unit of the same name) and the unit that runs it at
                    // boot; the stand-in script logs its calls beside modprobe's.
                    "etc/init.d/openibd",
                    "#!/bin/sh\n"
                        + "### BEGIN INIT INFO\n"
                        + "# Provides:       openibd\n"
                        + "# Required-Start: $local_fs\n"
                        + "# Required-Stop:\n"
                        + "# Default-Start:  2 3 4 5\n"
                        + "# Default-Stop:   0 1 6\n"
                        + "# Description:    Activates/Deactivates the RDMA stack\n"
                        + "### END INIT INFO\n"
                        + "echo \"openibd $*\" >> /var/log/gpugen-test-modules.log\n",
                    "lib/systemd/system/openibd.service",
                    "[Unit]\nDescription=openibd\n[Service]\nType=oneshot\n"
                        + "ExecStart=/etc/init.d/openibd start\nRemainAfterExit=yes\n"
                        + "[Install]\nWantedBy=multi-user.target\n")));
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
              "doca_ofed_arch=x86_64",
              // The module steps of a live host, against stand-ins: nvidia-peermem is loaded (the
              // driver came first), modprobe logs its calls.
              "-e",
              "doca_ofed_live_host=true");
      Files.createDirectories(root.resolve("sys/module/nvidia_peermem"));
      for (String sbin : List.of("usr/sbin", "sbin")) {
        if (Files.exists(
            root.resolve(sbin + "/modprobe"), java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
          Files.delete(root.resolve(sbin + "/modprobe"));
        }
      }
      // The driver came first: DKMS has its modules, built without DOCA's peer-memory API.
      AnsibleToolsTest.executable(
          root.resolve("usr/sbin/dkms"),
          "#!/bin/sh\n"
              + "case \"$1\" in\n"
              + "  status) echo 'nvidia/580.95.05, 6.8.0-1032-aws, x86_64: installed' ;;\n"
              + "  *) echo \"dkms $*\" >> /var/log/gpugen-test-modules.log ;;\n"
              + "esac\n");
      AnsibleToolsTest.executable(
          root.resolve("usr/sbin/modprobe"),
          "#!/bin/sh\necho \"modprobe $*\" >> /var/log/gpugen-test-modules.log\n");
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
      // DOCA's modules are loaded on this boot: nvidia-peermem, which holds the inbox ib_core,
      // goes first, then openibd restarts the stack; openibd.service loads it at every boot.
      assertEquals(
          List.of(
              "dkms install --force nvidia/580.95.05 -k 6.8.0-1032-aws",
              "modprobe -r nvidia_peermem",
              "openibd restart"),
          Files.readAllLines(root.resolve("var/log/gpugen-test-modules.log")),
          first.output());
      assertTrue(
          Files.isSymbolicLink(
              root.resolve("etc/systemd/system/multi-user.target.wants/openibd.service")),
          "openibd.service is not enabled");
      assertTrue(
          doca.requests().stream()
              .anyMatch(r -> r.startsWith("GET " + REPO + "/") && r.endsWith("/InRelease")),
          doca.requests()::toString);

      RealTools.Result second =
          play(dir, root, "00-prerequisites.yml", extra, "--tags", "doca_ofed");
      RenderedCase.assertExit(0, second);
      assertEquals(0, RealTools.recap(second.output(), "hgx-01").get("changed"), second.output());
      assertEquals(
          3,
          Files.readAllLines(root.resolve("var/log/gpugen-test-modules.log")).size(),
          "a second run rebuilt or restarted something");

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
