package dev.gpugen.inventory;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.gpugen.json.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The {@code --list} document is written without jackson for speed: its bytes must be exactly what
 * gpugen's one JSON style ({@link Json#write} with the pretty printer, non-ASCII escaped) writes.
 */
class InventoryJsonTest {
  private static final String[] TEXT = {
    "",
    "plain",
    "demo-a100-train-00001",
    "a \"quoted\" \\ back\\slash / slash",
    "controls \u0000\u0001\b\t\n\u000b\f\r\u001f end",
    "del \u007f and \u0080 and \u00ff",
    "caf\u00e9 \u4e2d\u6587 \u20ac",
    "emoji \uD83D\uDE00 and a lone \uD800 surrogate",
    "{{ jinja }}"
  };

  @Test
  void theListIsWhatGpugensJsonStyleWrites() throws Exception {
    Random random = new Random(42);
    for (int round = 0; round < 300; round++) {
      Inventory inventory = randomInventory(random);
      assertArrayEquals(
          jackson(inventory),
          InventoryJson.list(inventory),
          () -> new String(InventoryJson.list(inventory), java.nio.charset.StandardCharsets.UTF_8));
    }
  }

  @Test
  void anEmptyInventoryToo() throws Exception {
    Inventory empty = new Inventory(new TreeMap<>(), new TreeMap<>());
    assertArrayEquals(jackson(empty), InventoryJson.list(empty));
    Inventory emptyGroup =
        new Inventory(new TreeMap<>(Map.of("pool_x", List.of())), new TreeMap<>());
    assertArrayEquals(jackson(emptyGroup), InventoryJson.list(emptyGroup));
  }

  @Test
  void sortedArrayMapsAreSortedMapsThatRefuseUnsortedKeys() {
    SortedMap<String, String> map =
        SortedArrayMap.ofSorted(new String[] {"a", "b", "c"}, new Object[] {"1", "2", "3"});
    assertEquals(new TreeMap<>(Map.of("a", "1", "b", "2", "c", "3")), map);
    assertEquals("2", map.get("b"));
    assertEquals(null, map.get("x"));
    assertEquals(List.of("b"), List.copyOf(map.subMap("b", "c").keySet()));
    assertThrows(
        IllegalArgumentException.class,
        () -> SortedArrayMap.ofSorted(new String[] {"b", "a"}, new Object[] {"1", "2"}));
    assertThrows(
        IllegalArgumentException.class,
        () -> SortedArrayMap.ofSorted(new String[] {"a", "a"}, new Object[] {"1", "2"}));
    assertThrows(UnsupportedOperationException.class, () -> map.put("d", "4"));
  }

  private static Inventory randomInventory(Random random) {
    SortedMap<String, SortedMap<String, String>> hostvars = new TreeMap<>();
    for (int h = random.nextInt(6); h > 0; h--) {
      SortedMap<String, String> vars = new TreeMap<>();
      for (int v = random.nextInt(5); v > 0; v--) {
        vars.put(text(random), text(random));
      }
      hostvars.put(text(random) + h, vars);
    }
    SortedMap<String, List<String>> groups = new TreeMap<>();
    for (int g = random.nextInt(5); g > 0; g--) {
      List<String> hosts = new ArrayList<>();
      for (int n = random.nextInt(4); n > 0; n--) {
        hosts.add(text(random));
      }
      groups.put("group_" + text(random), hosts);
    }
    return new Inventory(groups, hostvars);
  }

  private static String text(Random random) {
    return TEXT[random.nextInt(TEXT.length)];
  }

  /** The document as jackson writes it in gpugen's style, plus the final newline. */
  private static byte[] jackson(Inventory inventory) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Json.write(
        out,
        true,
        json -> {
          json.writeStartObject();
          json.writeObjectFieldStart(InventoryJson.META);
          json.writeObjectFieldStart("hostvars");
          for (Map.Entry<String, SortedMap<String, String>> host :
              inventory.hostvars().entrySet()) {
            json.writeFieldName(host.getKey());
            vars(json, host.getValue());
          }
          json.writeEndObject();
          json.writeEndObject();
          for (Map.Entry<String, List<String>> group : inventory.groups().entrySet()) {
            json.writeObjectFieldStart(group.getKey());
            json.writeArrayFieldStart("hosts");
            for (String host : group.getValue()) {
              json.writeString(host);
            }
            json.writeEndArray();
            json.writeEndObject();
          }
          json.writeEndObject();
        });
    out.write('\n');
    return out.toByteArray();
  }

  private static void vars(JsonGenerator json, Map<String, String> vars) throws IOException {
    json.writeStartObject();
    for (Map.Entry<String, String> var : vars.entrySet()) {
      json.writeStringField(var.getKey(), var.getValue());
    }
    json.writeEndObject();
  }
}
