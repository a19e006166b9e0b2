package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/** The block YAML of computed trees reads back as the same tree, hostile strings included. */
class YamlTreeTest {
  @Test
  void aNestedTreeReadsBackUnchanged() {
    Map<String, Object> tree = new LinkedHashMap<>();
    tree.put("plain", "on");
    tree.put("nvidia.com/gpu", "0755");
    tree.put("flags", Map.of("enabled", true, "count", 3));
    tree.put(
        "env",
        List.of(
            Map.of("name", "A", "value", "{{ lookup('pipe','id') }}"),
            Map.of("name", "B: c", "value", "x\n- y\t\"z\"")));
    tree.put("empty", Map.of());
    tree.put("none", List.of());
    String yaml = "root:\n" + YamlTree.write(tree, 2, false) + "\n";
    Object back = new Load(LoadSettings.builder().build()).loadFromString(yaml);
    assertEquals(Map.of("root", tree), back);
  }

  @Test
  void ansibleTreesTagEveryString() {
    String yaml = YamlTree.write(Map.of("a", List.of("x", Map.of("b", "y")), "c", false), 0, true);
    assertEquals(2, yaml.split("!unsafe ", -1).length - 1, yaml);
    assertTrue(yaml.contains("c: false"), yaml);
  }
}
