package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.testing.RealTools;
import dev.gpugen.testing.RealToolsTest;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The local_nvme role's boot unit, rendered by Ansible from the aws-capacity-block case's
 * group_vars (pool b300 moves containerd's root onto the array, pool h100 only mounts /local) and
 * enabled by the real systemctl into a scratch root: containerd requires it (the link systemctl
 * makes in containerd.service.requires/ for RequiredBy=) and is ordered after it, so containerd
 * never starts on the root disk before the array is mounted, nor after mounting failed
 * (systemd.unit(5), https://www.freedesktop.org/software/systemd/man/latest/systemd.unit.html).
 */
@RealToolsTest
class LocalNvmeUnitTest {
  @TempDir Path tmp;

  @Test
  void containerdRequiresTheArrayAndStartsAfterIt() throws Exception {
    Path dir = RenderedCase.render("aws-capacity-block", tmp.resolve("render")).ansible();
    for (String pool : List.of("b300", "h100")) {
      Path root = tmp.resolve("root-" + pool);
      Path units = Files.createDirectories(root.resolve("etc/systemd/system"));
      Path playbook =
          Files.writeString(
              tmp.resolve("unit-" + pool + ".yml"),
              "- name: Render the local NVMe unit of pool "
                  + pool
                  + "\n"
                  + "  hosts: localhost\n"
                  + "  connection: local\n"
                  + "  gather_facts: false\n"
                  + "  vars_files:\n"
                  + "    - "
                  + dir.resolve("roles/local_nvme/defaults/main.yml")
                  + "\n"
                  + "    - "
                  + dir.resolve("group_vars/pool_" + pool + ".yml")
                  + "\n"
                  + "  tasks:\n"
                  + "    - name: Render it\n"
                  + "      ansible.builtin.template:\n"
                  + "        src: "
                  + dir.resolve("roles/local_nvme/templates/gpugen-local-nvme.service.j2")
                  + "\n"
                  + "        dest: "
                  + units.resolve("gpugen-local-nvme.service")
                  + "\n"
                  + "        mode: \"0644\"\n");
      RealTools.run(
              tmp,
              Duration.ofMinutes(3),
              Map.of(),
              "ansible-playbook",
              "-i",
              "localhost,",
              playbook.toString())
          .assertOk();
      RealTools.run(
              tmp,
              Duration.ofMinutes(1),
              Map.of(),
              "systemctl",
              "--root=" + root,
              "enable",
              "gpugen-local-nvme.service")
          .assertOk();

      Path required = units.resolve("containerd.service.requires/gpugen-local-nvme.service");
      assertTrue(Files.isSymbolicLink(required), pool + ": containerd does not require the unit");
      assertEquals(
          Path.of("/etc/systemd/system/gpugen-local-nvme.service"),
          Files.readSymbolicLink(required),
          pool);
      assertTrue(
          Files.exists(
              units.resolve("multi-user.target.wants/gpugen-local-nvme.service"),
              LinkOption.NOFOLLOW_LINKS),
          pool + ": not started at boot");
      String unit = Files.readString(units.resolve("gpugen-local-nvme.service"));
      assertTrue(unit.contains("\nBefore=containerd.service kubelet.service\n"), unit);
      assertEquals(
          pool.equals("b300"), unit.contains(" --containerd\n"), pool + ": --containerd\n" + unit);
    }
  }
}
