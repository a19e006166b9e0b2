package dev.gpugen.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.core.JsonParseException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The one JSON style (generated files and printed output) and the one reader. */
class JsonTest {
  @Test
  void keysAreSortedAtEveryLevelWithTwoSpacesAndOneElementPerLine() {
    Map<String, Object> inner = new LinkedHashMap<>();
    inner.put("z", 1);
    inner.put("a", Arrays.asList(true, null));
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("b", inner);
    root.put("a", "ä");
    assertEquals(
        """
        {
          "a": "ä",
          "b": {
            "a": [
              true,
              null
            ],
            "z": 1
          }
        }""",
        Json.write(root));
    assertEquals(Json.write(root).replace("ä", "\\u00E4"), Json.writeAscii(root));
  }

  @Test
  void onlyJsonDataIsWritten() {
    assertThrows(IllegalArgumentException.class, () -> Json.write(Map.of("a", new Object())));
  }

  @Test
  void streamingWritesUseTheSameStyle() throws Exception {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    Json.write(
        out,
        true,
        g -> {
          g.writeStartObject();
          g.writeFieldName("a");
          g.writeStartArray();
          g.writeString("x");
          g.writeEndArray();
          g.writeEndObject();
        });
    assertEquals(Json.write(Map.of("a", List.of("x"))), out.toString(StandardCharsets.UTF_8));
  }

  @Test
  void aDuplicateKeyIsAnErrorOrACollectedProblem() throws Exception {
    byte[] twice = "{\"a\": 1,\n \"a\": 2}".getBytes(StandardCharsets.UTF_8);
    assertThrows(JsonParseException.class, () -> Json.parse(twice));
    List<String> problems = new ArrayList<>();
    assertEquals(Map.of("a", 2L), Json.parseCollecting(twice, problems));
    assertEquals(List.of("duplicate key \"a\" at line 2, column 2"), problems);
    assertThrows(
        JsonParseException.class, () -> Json.parse("1 2".getBytes(StandardCharsets.UTF_8)));
    assertThrows(JsonParseException.class, () -> Json.parse(new byte[0]));
  }
}
