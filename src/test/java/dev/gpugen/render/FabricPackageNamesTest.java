package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gpugen.Golden;
import dev.gpugen.testing.RealTools;
import dev.gpugen.testing.RealToolsTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Fabric Manager, NSCQ and NVSDM names the nvidia_driver role asks apt for, evaluated by
 * Ansible itself from the role's defaults for every driver branch gpugen's table knows of, equal
 * the names NVIDIA's repository ships for that branch
 * (src/test/resources/upstream/cuda-repository-fabric- packages.txt, copied from NVIDIA's driver
 * container). CudaRepositoryTest installs one branch for real; this covers the rule on both sides
 * of branch 580.
 */
@RealToolsTest
class FabricPackageNamesTest {
  private static final List<Integer> BRANCHES = List.of(535, 550, 570, 575, 580, 590, 595, 610);

  @TempDir Path tmp;

  @Test
  void theRoleAsksForTheNamesNvidiasRepositoryShipsOnEveryBranch() throws Exception {
    Path defaults =
        Golden.repo().resolve("templates/ansible/roles/nvidia_driver/defaults/main.yml");
    StringBuilder play =
        new StringBuilder(
            "- name: Evaluate the Fabric Manager names of the role's defaults\n"
                + "  hosts: localhost\n"
                + "  connection: local\n"
                // The platform facts: libnvsdm is asked for on x86_64 only (this machine's).
                + "  gather_facts: true\n"
                + "  gather_subset: ['!all']\n"
                + "  vars_files:\n"
                + "    - "
                + defaults
                + "\n"
                + "  tasks:\n"
                + "    - name: Print the names of each branch\n"
                + "      ansible.builtin.debug:\n"
                + "        msg: \"NAMES {{ item }} {{ nvidia_driver_fabricmanager_packages | join(',') }}\"\n"
                + "      vars:\n"
                + "        nvidia_driver_branch: \"{{ item }}\"\n"
                + "      loop: "
                + BRANCHES
                + "\n");
    Path playbook = Files.writeString(tmp.resolve("names.yml"), play.toString());
    RealTools.Result r =
        RealTools.run(
            tmp,
            Duration.ofMinutes(3),
            Map.of(),
            "ansible-playbook",
            "-i",
            "localhost,",
            playbook.toString());
    r.assertOk();
    Map<Integer, List<String>> asked = new TreeMap<>();
    Matcher m = Pattern.compile("NAMES ([0-9]+) ([^\"\\n]+)").matcher(r.output());
    while (m.find()) {
      asked.put(Integer.parseInt(m.group(1)), List.of(m.group(2).split(",")));
    }
    Map<Integer, List<String>> shipped = new TreeMap<>();
    for (int branch : BRANCHES) {
      shipped.put(branch, new ArrayList<>(CudaRepositoryNames.names(branch)));
    }
    assertEquals(shipped, asked, r.output());
  }
}
