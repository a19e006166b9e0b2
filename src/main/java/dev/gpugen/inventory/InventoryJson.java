package dev.gpugen.inventory;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.gpugen.json.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

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

  /**
   * The {@code --list} document, byte for byte what {@link Json#write} with gpugen's pretty printer
   * writes, straight into one array: at 16,000 hosts it is 16 MB, and jackson's generator with its
   * pretty printer took three times as long for the same bytes (bench/inventory.sh).
   */
  public static byte[] list(Inventory inventory) {
    Ascii json = new Ascii(1 << 16);
    json.beginObject();
    // "_meta" sorts before every group name: they all start with a lower-case letter.
    json.field(META);
    json.beginObject();
    json.field(HOSTVARS);
    json.beginObject();
    for (Map.Entry<String, ? extends Map<String, String>> host : inventory.hostvars().entrySet()) {
      json.field(host.getKey());
      json.beginObject();
      Map<String, String> vars = host.getValue();
      for (Map.Entry<String, String> var :
          (vars instanceof SortedMap<String, String> sorted && sorted.comparator() == null
                  ? sorted
                  : new java.util.TreeMap<>(vars))
              .entrySet()) {
        json.field(var.getKey());
        json.string(var.getValue());
      }
      json.end('}');
    }
    json.end('}');
    json.end('}');
    for (Map.Entry<String, List<String>> group : inventory.groups().entrySet()) {
      json.field(group.getKey());
      json.beginObject();
      json.field("hosts");
      json.beginArray();
      for (String host : group.getValue()) {
        json.string(host);
      }
      json.end(']');
      json.end('}');
    }
    json.end('}');
    return json.document();
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

  /**
   * jackson's pretty printer as gpugen configures it ({@link Json#prettyPrinter}: two spaces per
   * level, {@code "key": value}, one array element per line, {@code { }} and {@code [ ]} when
   * empty) and its escaping with non-ASCII escaped ({@link Json#STRICT}): a backslash before {@code
   * "} and itself, {@code b t n f r} for those controls, a six-character escape (backslash, {@code
   * u}, four upper-case hex digits) for the other controls and every char above DEL;
   * InventoryJsonTest compares the two.
   */
  private static final class Ascii {
    private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);

    private byte[] bytes;
    private int size;
    private int depth;

    /** Per open object or array: how many entries it has so far. */
    private int[] entries = new int[8];

    /** A field name was written and its value is next. */
    private boolean afterField;

    Ascii(int capacity) {
      bytes = new byte[capacity];
    }

    private void room(int more) {
      if (size + more > bytes.length) {
        bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
      }
    }

    private void put(char c) {
      room(1);
      bytes[size++] = (byte) c;
    }

    private void newline() {
      room(1 + 2 * depth);
      bytes[size++] = '\n';
      for (int i = 0; i < 2 * depth; i++) {
        bytes[size++] = ' ';
      }
    }

    /** Before a field, or a value that is not a field's: the separator and the new line. */
    private void entry() {
      if (depth > 0) {
        if (entries[depth - 1]++ > 0) {
          put(',');
        }
        newline();
      }
    }

    /** Before a value: a field's follows its name, any other is an entry of its own. */
    private void value() {
      if (afterField) {
        afterField = false;
      } else {
        entry();
      }
    }

    void beginObject() {
      value();
      open('{');
    }

    void beginArray() {
      value();
      open('[');
    }

    private void open(char c) {
      put(c);
      if (depth == entries.length) {
        entries = Arrays.copyOf(entries, depth * 2);
      }
      entries[depth++] = 0;
    }

    void end(char c) {
      if (entries[--depth] > 0) {
        newline();
      } else {
        put(' ');
      }
      put(c);
    }

    /** A field name and the separator; its value follows. */
    void field(String name) {
      entry();
      quoted(name);
      room(2);
      bytes[size++] = ':';
      bytes[size++] = ' ';
      afterField = true;
    }

    void string(String value) {
      value();
      quoted(value);
    }

    private void quoted(String s) {
      int n = s.length();
      room(n + 2);
      bytes[size++] = '"';
      for (int i = 0; i < n; i++) {
        char c = s.charAt(i);
        if (c >= 0x20 && c < 0x7F && c != '"' && c != '\\') {
          if (size == bytes.length) {
            room(1 + n - i);
          }
          bytes[size++] = (byte) c;
          continue;
        }
        room(6 + n - i);
        switch (c) {
          case '"' -> escape('"');
          case '\\' -> escape('\\');
          case '\b' -> escape('b');
          case '\t' -> escape('t');
          case '\n' -> escape('n');
          case '\f' -> escape('f');
          case '\r' -> escape('r');
          default -> {
            if (c == 0x7F) {
              bytes[size++] = (byte) c;
            } else {
              bytes[size++] = '\\';
              bytes[size++] = 'u';
              bytes[size++] = HEX[c >> 12];
              bytes[size++] = HEX[(c >> 8) & 0xF];
              bytes[size++] = HEX[(c >> 4) & 0xF];
              bytes[size++] = HEX[c & 0xF];
            }
          }
        }
      }
      room(1);
      bytes[size++] = '"';
    }

    private void escape(char c) {
      bytes[size++] = '\\';
      bytes[size++] = (byte) c;
    }

    /** The bytes written and a final newline. */
    byte[] document() {
      put('\n');
      return Arrays.copyOf(bytes, size);
    }
  }
}
