package dev.gpugen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The ansible-core check of gpugen up's pre-flight, over the banners {@code ansible --version}
 * prints: ansible-core's "ansible-playbook [core X.Y.Z]" (2.11 on; ansible's own reads "ansible
 * [core ..."), and "ansible-playbook X.Y.Z" before.
 */
class PreflightTest {
  @ParameterizedTest
  @ValueSource(
      strings = {
        "ansible [core 2.14.18]\n  config file = None\n",
        "ansible-playbook [core 2.14.18]\n  config file = None\n",
        "ansible [core 2.16.3]\n",
        "ansible [core 2.20.0]\n",
        "ansible [core 3.0.0]\n",
        "no banner gpugen knows\n"
      })
  void aRecentOrUnreadableAnsibleIsNoProblem(String banner) {
    assertEquals(Optional.empty(), Preflight.ansibleCore(banner));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "ansible [core 2.13.13]\n",
        "ansible-playbook [core 2.13.13]\n",
        "ansible [core 2.11.12]\n",
        "ansible 2.9.27\n",
        "ansible-playbook 2.9.27\n"
      })
  void anAnsibleOlderThanTheRolesNeedIsAProblemBeforeAnythingRuns(String banner) {
    String problem = Preflight.ansibleCore(banner).orElseThrow();
    String version = banner.replaceAll("^ansible(-playbook)? (\\[core )?(\\d+\\.\\d+).*\\n$", "$3");
    assertTrue(problem.startsWith("ansible-core " + version + " is older than 2.14"), problem);
  }

  @Test
  void theBannerIsTheLineThatStartsWithAnsible() {
    assertEquals(
        Optional.empty(),
        Preflight.ansibleCore("  ansible 2.9 compatibility notes\nansible [core 2.14.18]\n"));
  }
}
