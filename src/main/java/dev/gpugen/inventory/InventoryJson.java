package dev.gpugen.inventory;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The script protocol's JSON: {@code --list} prints every group as {@code {"hosts": [...]}} plus
 * {@code _meta.hostvars}; {@code --host} prints one host's variables. Keys are sorted, two-space
 * indented, non-ASCII escaped (so the bytes do not depend on the locale Ansible runs us in), and
 * end with a newline: the same inventory always gives the same bytes.
 */
public final class InventoryJson {
  /** The key Ansible reads host variables from; a group can never be called this. */
  public static final String META = "_meta";

  private static final ObjectMapper MAPPER =
      JsonMapper.builder()
          .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
          .enable(JsonWriteFeature.ESCAPE_NON_ASCII)
          .build();

  private static final DefaultPrettyPrinter PRETTY =
      new DefaultPrettyPrinter()
          .withSeparators(
              Separators.createDefaultInstance()
                  .withObjectFieldValueSpacing(Separators.Spacing.AFTER))
          .withArrayIndenter(new DefaultIndenter("  ", "\n"))
          .withObjectIndenter(new DefaultIndenter("  ", "\n"));

  private InventoryJson() {}

  /** The {@code --list} document. */
  public static byte[] list(Inventory inventory) {
    Map<String, Object> root = new TreeMap<>();
    inventory.groups().forEach((name, hosts) -> root.put(name, Map.of("hosts", hosts)));
    root.put(META, Map.of("hostvars", inventory.hostvars()));
    return write(root);
  }

  /** The {@code --host} document for {@code host}: its variables, {@code {}} if unknown. */
  public static byte[] host(Inventory inventory, String host) {
    return write(inventory.varsOf(host));
  }

  /** The {@code --host} document for {@code host}, read from a {@code --list} document. */
  public static byte[] hostFromList(byte[] list, String host) throws IOException {
    JsonNode vars = MAPPER.readTree(list).path(META).path("hostvars").path(host);
    return write(vars.isObject() ? vars : Map.of());
  }

  /** Parses a {@code --list} document; empty if it is not one. */
  public static Optional<JsonNode> parseList(byte[] list) {
    try {
      JsonNode root = MAPPER.readTree(list);
      return root != null && root.path(META).path("hostvars").isObject()
          ? Optional.of(root)
          : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private static byte[] write(Object value) {
    try {
      String text = MAPPER.writer(PRETTY).writeValueAsString(value);
      return (text + "\n").getBytes(StandardCharsets.UTF_8);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }
}
