package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The pack the build ships holds templates/ exactly: every file, byte for byte, nothing else. */
class TemplatePackTest {
  @Test
  void theShippedPackIsTheTemplatesFolder() throws IOException {
    Map<String, String> folder = new TreeMap<>();
    Path root = Path.of("templates");
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        folder.put(root.relativize(p).toString().replace('\\', '/'), Files.readString(p));
      }
    }
    try (InputStream in = TemplatePack.class.getResourceAsStream(TemplatePack.RESOURCE)) {
      assertNotNull(in, "the build wrote " + TemplatePack.RESOURCE + " into the classpath");
      Map<String, String> shipped = TemplatePack.read(in);
      assertEquals(folder.keySet(), shipped.keySet(), "rebuild: templates.pack is stale");
      assertEquals(folder, shipped, "rebuild: templates.pack is stale");
    }
    assertEquals(folder.keySet(), Set.copyOf(Templates.load(java.util.Optional.empty()).names()));
  }

  @Test
  void filesRoundTripInNameOrder() throws IOException {
    Map<String, byte[]> files = new TreeMap<>();
    files.put("b/x.yml.ftl", "[=x]\n".getBytes(StandardCharsets.UTF_8));
    files.put("a/é.tf", "é\r\n".getBytes(StandardCharsets.UTF_8));
    files.put("empty", new byte[0]);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    TemplatePack.write(files, out);
    Map<String, String> back = TemplatePack.read(new ByteArrayInputStream(out.toByteArray()));
    assertEquals(
        java.util.List.of("a/é.tf", "b/x.yml.ftl", "empty"), java.util.List.copyOf(back.keySet()));
    assertEquals("é\r\n", back.get("a/é.tf"));
    assertEquals("", back.get("empty"));
  }

  @Test
  void aCutOrForeignPackIsRefused() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    TemplatePack.write(Map.of("a.tf", "resource {}\n".getBytes(StandardCharsets.UTF_8)), out);
    byte[] whole = out.toByteArray();
    byte[] cut = Arrays.copyOf(whole, whole.length - 3);
    assertThrows(IOException.class, () -> TemplatePack.read(new ByteArrayInputStream(cut)));
    byte[] longer = Arrays.copyOf(whole, whole.length + 1);
    assertThrows(IOException.class, () -> TemplatePack.read(new ByteArrayInputStream(longer)));
    byte[] yaml = "a: b\n".getBytes(StandardCharsets.UTF_8);
    assertThrows(IOException.class, () -> TemplatePack.read(new ByteArrayInputStream(yaml)));
  }
}
