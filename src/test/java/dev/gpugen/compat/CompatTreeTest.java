package dev.gpugen.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The tree the build ships is exactly compat.yaml's, so the YAML stays the one source. */
class CompatTreeTest {
  static final Path YAML = Path.of("src/main/resources/dev/gpugen/compat/compat.yaml");

  @Test
  void theShippedTreeIsTheTreeOfCompatYaml() throws IOException {
    Object fromYaml = CompatYaml.readTree(Files.readString(YAML, StandardCharsets.UTF_8), "x");
    try (InputStream in = CompatTable.class.getResourceAsStream(CompatTree.RESOURCE)) {
      assertNotNull(in, "the build wrote " + CompatTree.RESOURCE + " into the classpath");
      assertEquals(fromYaml, CompatTree.read(in), "rebuild: compat.tree is stale");
    }
  }

  @Test
  void aTreeRoundTripsWithItsOrderAndNulls() throws IOException {
    Map<String, Object> tree = new LinkedHashMap<>();
    tree.put("z", "last-first");
    tree.put("a", Arrays.asList("x", null, List.of(Map.of("k", "v"))));
    tree.put("empty", Map.of());
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    CompatTree.write(tree, new DataOutputStream(bytes));
    Object back = CompatTree.read(new ByteArrayInputStream(bytes.toByteArray()));
    assertEquals(tree, back);
    assertEquals(List.of("z", "a", "empty"), List.copyOf(((Map<?, ?>) back).keySet()));
  }

  @Test
  void anotherFileIsRefused() {
    byte[] yaml = "cuda_releases: {}\n".getBytes(StandardCharsets.UTF_8);
    assertThrows(IOException.class, () -> CompatTree.read(new ByteArrayInputStream(yaml)));
  }

  @Test
  void theLoadedTableIsTheTableOfCompatYaml() throws IOException {
    CompatTable fromYaml =
        CompatYaml.parse(Files.readString(YAML, StandardCharsets.UTF_8), "compat.yaml");
    CompatTable shipped = CompatTable.load();
    assertEquals(fromYaml.rows(), shipped.rows());
    assertEquals(fromYaml.nccl(), shipped.nccl());
    assertEquals(fromYaml.lifecycleAsOf(), shipped.lifecycleAsOf());
    assertEquals(fromYaml.driverKnownIssues(), shipped.driverKnownIssues());
  }
}
