package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.Golden;
import dev.gpugen.compat.Version;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The EFA installer the nccl_network role downloads is pinned to a release and the SHA-256 AWS
 * published for exactly that release, read from
 * src/test/resources/upstream/efa-installer-sha256.txt (sha256sum's format, each value with its
 * public source), so a version bump without its published checksum fails here before get_url fails
 * on a node.
 */
class EfaInstallerPinTest {
  private static String value(String defaults, String name) {
    Matcher m = Pattern.compile("(?m)^" + name + ": \"?([^\"\\n]+)\"?$").matcher(defaults);
    assertTrue(m.find(), name + " in the role's defaults");
    return m.group(1);
  }

  /** Version to SHA-256, from the published list (lines "SHA256 aws-efa-installer-V.tar.gz"). */
  private static Map<Version, String> published() throws Exception {
    Map<Version, String> out = new TreeMap<>();
    Pattern line = Pattern.compile("([0-9a-f]{64})  aws-efa-installer-([0-9.]+)\\.tar\\.gz");
    for (String l :
        Files.readAllLines(
            Golden.repo().resolve("src/test/resources/upstream/efa-installer-sha256.txt"))) {
      if (l.startsWith("#") || l.isBlank()) {
        continue;
      }
      Matcher m = line.matcher(l);
      assertTrue(m.matches(), "not a sha256sum line: " + l);
      out.put(Version.parse(m.group(2)), m.group(1));
    }
    return out;
  }

  @Test
  void theInstallerIsTheNewestPublishedReleaseWithItsPublishedChecksum() throws Exception {
    String defaults =
        Files.readString(Path.of("templates/ansible/roles/nccl_network/defaults/main.yml"));
    Version version = Version.parse(value(defaults, "nccl_network_efa_installer_version"));
    Map<Version, String> published = published();
    assertTrue(published.containsKey(version), version + " has no published checksum");
    assertEquals(
        ((TreeMap<Version, String>) published).lastKey(),
        version,
        "the newest release with a published checksum");
    assertEquals(published.get(version), value(defaults, "nccl_network_efa_installer_sha256"));
    assertEquals(
        "https://efa-installer.amazonaws.com/aws-efa-installer-{{ nccl_network_efa_installer_version }}.tar.gz",
        value(defaults, "nccl_network_efa_installer_upstream_url"));
  }
}
