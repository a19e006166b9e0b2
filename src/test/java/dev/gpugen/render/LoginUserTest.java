package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.testing.RealTools;
import dev.gpugen.testing.RealToolsTest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The login user, as Ansible itself reads the rendered ansible.cfg. */
@RealToolsTest
class LoginUserTest {
  private static String changedSettings(RenderedCase c) throws Exception {
    return RealTools.run(
            c.ansible(),
            Duration.ofSeconds(60),
            Map.of(),
            "ansible-config",
            "dump",
            "--only-changed",
            "-c",
            c.ansible().resolve("ansible.cfg").toString())
        .assertOk()
        .output();
  }

  @Test
  void ec2NodesOnUbuntuLogInAsUbuntu(@TempDir Path dir) throws Exception {
    String out = changedSettings(RenderedCase.render("reference", dir));
    assertTrue(out.contains("DEFAULT_REMOTE_USER(") && out.contains(") = ubuntu"), out);
  }

  @Test
  void staticHostsKeepTheirInventorysUser(@TempDir Path dir) throws Exception {
    String out = changedSettings(RenderedCase.render("static-baremetal", dir));
    assertFalse(out.contains("DEFAULT_REMOTE_USER"), out);
  }
}
