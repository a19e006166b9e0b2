package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * GDRCopy, which the nccl_network role builds on EFA pools, is pinned to a release and the SHA-256
 * published for exactly that release's tag archive, so a version bump without its checksum fails
 * here before get_url fails on a node.
 */
class GdrcopyPinTest {
  /**
   * SHA-256 of https://github.com/NVIDIA/gdrcopy/archive/v<version>.tar.gz as Spack's gdrcopy
   * recipe publishes them
   * (https://github.com/spack/spack/blob/develop/var/spack/repos/builtin/packages/gdrcopy/package.py).
   */
  private static final Map<String, String> PUBLISHED =
      Map.of(
          "2.4.4", "8802f7bc4a589a610118023bdcdd83c10a56dea399acf6eeaac32e8cc10739a8",
          "2.5.1", "c6d5ebb7dabb89d798f27609511735595004da73af28d93ac041bb5290c4cbec");

  private static String value(String defaults, String name) {
    Matcher m = Pattern.compile("(?m)^" + name + ": \"?([^\"\\n]+)\"?$").matcher(defaults);
    assertTrue(m.find(), name + " in the role's defaults");
    return m.group(1);
  }

  @Test
  void gdrcopyIsTheReleaseWithCuda13SupportAndItsPublishedChecksum() throws Exception {
    String defaults =
        Files.readString(Path.of("templates/ansible/roles/nccl_network/defaults/main.yml"));
    String version = value(defaults, "nccl_network_gdrcopy_version");
    // 2.5.1 lists CUDA 13.0 support (https://github.com/NVIDIA/gdrcopy/releases/tag/v2.5.1).
    assertEquals("2.5.1", version, "the release gpugen chose (docs/ansible.md says why)");
    assertEquals(PUBLISHED.get(version), value(defaults, "nccl_network_gdrcopy_sha256"));
    // The archive Spack's checksum is of: the tag's, from NVIDIA's repository.
    assertEquals(
        "https://github.com/NVIDIA/gdrcopy/archive/v{{ nccl_network_gdrcopy_version }}.tar.gz",
        value(defaults, "nccl_network_gdrcopy_upstream_url"));
  }
}
