package dev.gpugen.inventory;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.gpugen.json.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

/**
 * The script protocol's JSON: {@code --list} prints every group as {@code {"hosts": [...]}} plus
 * {@code _meta.hostvars}; {@code --host} prints one host's variables. Keys are sorted, two-space
 * indented, non-ASCII escaped (so the bytes do not depend on the locale Ansible runs us in), and
 * end with a newline: the same inventory always gives the same bytes.
 */
public final class InventoryJson {
  /** The key Ansible reads host variables from; a group can never be called this. */
  public static final String META = "_meta";

  private static final String HOSTVARS = "hostvars";

  private InventoryJson() {}

  /** The {@code --list} document. */
  public static byte[] list(Inventory inventory) {
    return document(
        json -> {
          json.writeStartObject();
          // "_meta" sorts before every group name: they all start with a lower-case letter.
          json.writeObjectFieldStart(META);
          json.writeObjectFieldStart(HOSTVARS);
          for (Map.Entry<String, ? extends Map<String, String>> host :
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
  }

  /** The {@code --host} document for {@code host}: its variables, {@code {}} if unknown. */
  public static byte[] host(Inventory inventory, String host) {
    return document(json -> vars(json, inventory.varsOf(host)));
  }

  /**
   * The {@code --host} document for {@code host}, cut out of a {@code --list} document without
   * reading the rest of it into memory.
   */
  public static byte[] hostFromList(byte[] list, String host) throws IOException {
    try (JsonParser parser = Json.STRICT.createParser(list)) {
      if (seek(parser, META) && seek(parser, HOSTVARS) && seek(parser, host)) {
        return document(json -> json.copyCurrentStructure(parser));
      }
    }
    return document(json -> vars(json, Map.of()));
  }

  /**
   * Moves {@code parser} from before an object (or onto its start) to the value of its field {@code
   * name}, when that value is an object.
   */
  private static boolean seek(JsonParser parser, String name) throws IOException {
    if (parser.currentToken() != JsonToken.START_OBJECT
        && parser.nextToken() != JsonToken.START_OBJECT) {
      return false;
    }
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      boolean match = name.equals(parser.currentName());
      JsonToken value = parser.nextToken();
      if (match) {
        return value == JsonToken.START_OBJECT;
      }
      parser.skipChildren();
    }
    return false;
  }

  private static void vars(JsonGenerator json, Map<String, String> vars) throws IOException {
    json.writeStartObject();
    for (Map.Entry<String, String> var : new java.util.TreeMap<>(vars).entrySet()) {
      json.writeStringField(var.getKey(), var.getValue());
    }
    json.writeEndObject();
  }

  private static byte[] document(Json.Writer writer) {
    try {
      ByteArrayOutputStream out = new ByteArrayOutputStream(1 << 16);
      Json.write(out, true, writer);
      out.write('\n');
      return out.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
