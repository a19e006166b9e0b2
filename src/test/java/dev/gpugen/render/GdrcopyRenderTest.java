package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.Cli;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * Play 04 builds GDRCopy on EFA pools only, before the EFA installer, from the pinned archive with
 * its checksum; a render without an EFA pool carries none of it.
 */
class GdrcopyRenderTest {
  @TempDir Path tmp;

  private static List<Map<String, Object>> tasks(Path ansible) throws Exception {
    Object loaded =
        new Load(LoadSettings.builder().build())
            .loadFromString(Files.readString(ansible.resolve("roles/nccl_network/tasks/main.yml")));
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> list = (List<Map<String, Object>>) loaded;
    return list;
  }

  /** Every task of a list, blocks opened, in order. */
  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> flat(List<Map<String, Object>> tasks) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (Map<String, Object> t : tasks) {
      out.add(t);
      if (t.get("block") instanceof List<?> block) {
        out.addAll(flat((List<Map<String, Object>>) block));
      }
    }
    return out;
  }

  private static int indexOf(List<Map<String, Object>> tasks, String name) {
    for (int i = 0; i < tasks.size(); i++) {
      if (name.equals(tasks.get(i).get("name"))) {
        return i;
      }
    }
    return -1;
  }

  private static List<String> fabrics(Path ansible) throws Exception {
    List<String> out = new ArrayList<>();
    try (Stream<Path> files = Files.list(ansible.resolve("group_vars"))) {
      for (Path f : files.filter(f -> f.getFileName().toString().startsWith("pool_")).toList()) {
        for (String line : Files.readAllLines(f)) {
          if (line.startsWith("nccl_network_fabric: ")) {
            out.add(line.replaceAll("^nccl_network_fabric: (!unsafe )?\"?([a-z]+)\"?$", "$2"));
          }
        }
      }
    }
    return out;
  }

  @Test
  void anEfaPoolGetsGdrcopyPinnedByChecksumBeforeTheEfaInstaller() throws Exception {
    Path ansible = RenderedCase.render("reference", tmp.resolve("efa")).ansible();
    assertEquals(List.of("efa"), fabrics(ansible));

    List<Map<String, Object>> top = tasks(ansible);
    int gdrcopy = indexOf(top, "Install GDRCopy");
    int efa = indexOf(top, "Install the EFA software");
    assertTrue(gdrcopy >= 0 && efa > gdrcopy, "GDRCopy first, as in AWS's guide: " + top);
    Map<String, Object> block = top.get(gdrcopy);
    assertEquals("nccl_network_gdrcopy | bool", block.get("when"));
    assertEquals(List.of("network", "gdrcopy"), block.get("tags"));

    List<Map<String, Object>> all = flat(top);
    @SuppressWarnings("unchecked")
    Map<String, Object> download =
        (Map<String, Object>)
            all.get(indexOf(all, "Download GDRCopy")).get("ansible.builtin.get_url");
    assertEquals("{{ nccl_network_gdrcopy_url }}", download.get("url"));
    assertEquals("sha256:{{ nccl_network_gdrcopy_sha256 }}", download.get("checksum"));
    // Built, then installed, and only after the checksum was checked.
    assertTrue(
        indexOf(all, "Download GDRCopy") < indexOf(all, "Build the GDRCopy packages")
            && indexOf(all, "Build the GDRCopy packages")
                < indexOf(all, "Install the GDRCopy packages"),
        all::toString);
    assertTrue(indexOf(top, "Load gdrdrv now and at boot") > gdrcopy, top::toString);

    // The EFA installer too is downloaded against its pinned checksum, then unpacked.
    @SuppressWarnings("unchecked")
    Map<String, Object> installer =
        (Map<String, Object>)
            all.get(indexOf(all, "Download the EFA installer")).get("ansible.builtin.get_url");
    assertEquals("sha256:{{ nccl_network_efa_installer_sha256 }}", installer.get("checksum"));
    assertTrue(
        indexOf(all, "Download the EFA installer") < indexOf(all, "Unpack the EFA installer"),
        all::toString);

    // The gate is the pool's fabric; each checksum a SHA-256 pinned in the role's defaults (their
    // comments cite where each was published).
    String defaults = Files.readString(ansible.resolve("roles/nccl_network/defaults/main.yml"));
    assertTrue(
        defaults.contains("\nnccl_network_gdrcopy: \"{{ nccl_network_fabric == 'efa' }}\"\n"),
        defaults);
    for (String pin : List.of("nccl_network_gdrcopy_sha256", "nccl_network_efa_installer_sha256")) {
      assertTrue(
          java.util.regex.Pattern.compile("(?m)^" + pin + ": [0-9a-f]{64}$")
              .matcher(defaults)
              .find(),
          pin + " is a SHA-256: " + defaults);
    }
  }

  @Test
  void aRenderWithoutAnEfaPoolHasNoGdrcopy() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("tcp"));
    Path spec =
        Files.copy(
            dev.gpugen.Golden.repo().resolve("src/test/resources/golden/aws-single-node/spec.yaml"),
            dir.resolve("spec.yaml"));
    Cli cli = Cli.run("render", spec.toString(), "-o", dir.resolve("out").toString());
    assertEquals(0, cli.exit(), cli::toString);
    Path ansible = dir.resolve("out/ansible");
    assertEquals(List.of("tcp"), fabrics(ansible));

    List<Map<String, Object>> all = flat(tasks(ansible));
    assertEquals(-1, indexOf(all, "Install GDRCopy"), all::toString);
    assertEquals(-1, indexOf(all, "Load gdrdrv now and at boot"), all::toString);
    String text = Files.readString(ansible.resolve("roles/nccl_network/tasks/main.yml"));
    assertFalse(text.contains("gdrcopy"), text);
    // The EFA installer block is still there, gated on the fabric as before.
    assertTrue(indexOf(all, "Install the EFA software") >= 0, all::toString);
  }
}
