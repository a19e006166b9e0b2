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
 * The EFA installer the nccl_network role downloads is pinned to a release and the SHA-256 AWS
 * published for exactly that release, so a version bump without its checksum fails here before
 * get_url fails on a node.
 */
class EfaInstallerPinTest {
  /**
   * Installer checksums AWS published (AWS ParallelCluster's cookbook: 1.38.1 and 1.41.0 in
   * https://github.com/aws/aws-parallelcluster-cookbook/pull/2953; AWS's list:
   * https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/efa-verify.html).
   */
  private static final Map<String, String> PUBLISHED =
      Map.of(
          "1.38.1", "83923374afd388b1cfcf4b3a21a2b1ba7cf46a01a587f7b519b8386cb95e4f81",
          "1.41.0", "3506354cdfbe31ff552fe75f5d0d9bb7efd29cf79bd99457347d29c751c38f9f");

  private static String value(String defaults, String name) {
    Matcher m = Pattern.compile("(?m)^" + name + ": \"?([^\"\\n]+)\"?$").matcher(defaults);
    assertTrue(m.find(), name + " in the role's defaults");
    return m.group(1);
  }

  @Test
  void theInstallerIsTheNewestReleaseWithAPublishedChecksumAndThatChecksum() throws Exception {
    String defaults =
        Files.readString(Path.of("templates/ansible/roles/nccl_network/defaults/main.yml"));
    String version = value(defaults, "nccl_network_efa_installer_version");
    assertEquals(
        "1.41.0", version, "the newest release with an AWS-published checksum gpugen found");
    assertEquals(PUBLISHED.get(version), value(defaults, "nccl_network_efa_installer_sha256"));
    assertEquals(
        "https://efa-installer.amazonaws.com/aws-efa-installer-{{ nccl_network_efa_installer_version }}.tar.gz",
        value(defaults, "nccl_network_efa_installer_upstream_url"));
  }
}
