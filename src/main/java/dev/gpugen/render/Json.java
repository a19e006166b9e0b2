package dev.gpugen.render;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Deterministic JSON for generated files (tfvars, the manifest): keys sorted, two-space indent, LF.
 * Streaming jackson-core only: data binding would add a fifth of gpugen's start-up time for values
 * that are only maps, lists, strings, numbers and booleans.
 */
public final class Json {
  private static final JsonFactory FACTORY = new JsonFactory();

  /** For what gpugen prints: non-ASCII escaped, so the bytes do not depend on the locale. */
  private static final JsonFactory ASCII =
      JsonFactory.builder().enable(JsonWriteFeature.ESCAPE_NON_ASCII).build();

  private Json() {}

  public static String write(Object value) {
    return write(FACTORY, value);
  }

  /**
   * The style of every JSON document gpugen prints (validate, drift and inventory alike): as {@link
   * #write}, with non-ASCII characters escaped.
   */
  public static String writeAscii(Object value) {
    return write(ASCII, value);
  }

  private static String write(JsonFactory factory, Object value) {
    StringWriter out = new StringWriter();
    try (JsonGenerator g = factory.createGenerator(out)) {
      g.setPrettyPrinter(
          new DefaultPrettyPrinter()
              .withObjectIndenter(new DefaultIndenter("  ", "\n"))
              .withArrayIndenter(new DefaultIndenter("  ", "\n"))
              .withSeparators(
                  Separators.createDefaultInstance()
                      .withObjectFieldValueSpacing(Separators.Spacing.AFTER)));
      value(g, value);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  private static void value(JsonGenerator g, Object v) throws IOException {
    if (v == null) {
      g.writeNull();
    } else if (v instanceof String s) {
      g.writeString(s);
    } else if (v instanceof Boolean b) {
      g.writeBoolean(b);
    } else if (v instanceof Integer || v instanceof Long) {
      g.writeNumber(((Number) v).longValue());
    } else if (v instanceof Number n) {
      g.writeNumber(n.doubleValue());
    } else if (v instanceof Map<?, ?> m) {
      g.writeStartObject();
      for (Map.Entry<?, ?> e : new TreeMap<>(m).entrySet()) {
        g.writeFieldName(String.valueOf(e.getKey()));
        value(g, e.getValue());
      }
      g.writeEndObject();
    } else if (v instanceof List<?> l) {
      g.writeStartArray();
      for (Object o : l) {
        value(g, o);
      }
      g.writeEndArray();
    } else {
      throw new IllegalArgumentException("not JSON data: " + v.getClass().getName());
    }
  }
}
