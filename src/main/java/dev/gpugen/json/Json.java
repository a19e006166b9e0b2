package dev.gpugen.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * gpugen's one JSON style and its one JSON reader, on jackson-core's streaming API alone (data
 * binding would add a fifth of the start-up time for values that are only maps, lists, strings,
 * numbers and booleans). The style: keys sorted at every level, two spaces per level, {@code "key":
 * value}, one array element per line, LF. Generated files (tfvars, the manifest, the inventory
 * settings) keep their text as written; what gpugen prints (validate, drift and inventory output)
 * escapes non-ASCII, so its bytes do not depend on the locale.
 */
public final class Json {
  /** Reading: duplicate keys are errors. Writing: non-ASCII escaped. */
  public static final JsonFactory STRICT =
      JsonFactory.builder()
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .enable(JsonWriteFeature.ESCAPE_NON_ASCII)
          .build();

  private static final JsonFactory PLAIN = new JsonFactory();

  /** For files a person writes: duplicate keys are collected as problems, not thrown. */
  private static final JsonFactory LENIENT_DUPLICATES =
      JsonFactory.builder().enable(JsonWriteFeature.ESCAPE_NON_ASCII).build();

  private Json() {}

  /** Two-space indentation, {@code "key": value}, one array element per line. */
  public static DefaultPrettyPrinter prettyPrinter() {
    return new DefaultPrettyPrinter()
        .withSeparators(
            Separators.createDefaultInstance()
                .withObjectFieldValueSpacing(Separators.Spacing.AFTER))
        .withArrayIndenter(new DefaultIndenter("  ", "\n"))
        .withObjectIndenter(new DefaultIndenter("  ", "\n"));
  }

  /**
   * A generated file's JSON: maps (keys sorted), lists, strings, numbers, booleans and null, text
   * as written.
   *
   * @throws IllegalArgumentException for any other value
   */
  public static String write(Object value) {
    return write(PLAIN, value);
  }

  /**
   * What gpugen prints (validate, drift and inventory alike): {@link #write}, non-ASCII escaped.
   */
  public static String writeAscii(Object value) {
    return write(STRICT, value);
  }

  private static String write(JsonFactory factory, Object value) {
    StringWriter out = new StringWriter();
    try (JsonGenerator g = factory.createGenerator(out)) {
      g.setPrettyPrinter(prettyPrinter());
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

  /** What a streaming writer does with a generator. */
  @FunctionalInterface
  public interface Writer {
    void write(JsonGenerator json) throws IOException;
  }

  /** Runs {@code writer} on a generator over {@code out}, in the style above when pretty. */
  public static void write(OutputStream out, boolean pretty, Writer writer) throws IOException {
    try (JsonGenerator json = STRICT.createGenerator(out)) {
      if (pretty) {
        json.setPrettyPrinter(prettyPrinter());
      }
      writer.write(json);
    }
  }

  /** The bytes {@code writer} produces, compact. */
  public static byte[] bytes(Writer writer) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    write(out, false, writer);
    return out.toByteArray();
  }

  /**
   * Parses one JSON value into {@link LinkedHashMap}, {@link ArrayList}, {@link String}, {@link
   * Long}, {@link Double}, {@link Boolean} or {@code null}.
   *
   * @throws JsonParseException with the location of the first problem
   */
  public static Object parse(byte[] bytes) throws IOException {
    try (JsonParser parser = STRICT.createParser(bytes)) {
      return single(parser, null);
    }
  }

  /**
   * Like {@link #parse(byte[])}, but a duplicate key is added to {@code problems} ({@code duplicate
   * key "x" at line L, column C}; the last value wins) instead of ending the parse, so a settings
   * file's problems can all be reported at once. A syntax error still throws: nothing after it can
   * be read.
   */
  public static Object parseCollecting(byte[] bytes, List<String> problems) throws IOException {
    try (JsonParser parser = LENIENT_DUPLICATES.createParser(bytes)) {
      return single(parser, problems);
    }
  }

  private static Object single(JsonParser parser, List<String> problems) throws IOException {
    if (parser.nextToken() == null) {
      throw new JsonParseException(parser, "no JSON value");
    }
    Object value = read(parser, problems);
    if (parser.nextToken() != null) {
      throw new JsonParseException(parser, "more than one JSON value");
    }
    return value;
  }

  /** {@code problems} null: duplicates are the parser's error (strict factory). */
  private static Object read(JsonParser parser, List<String> problems) throws IOException {
    JsonToken token = parser.currentToken();
    switch (token) {
      case START_OBJECT -> {
        Map<String, Object> map = new LinkedHashMap<>();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
          String name = parser.currentName();
          if (problems != null && map.containsKey(name)) {
            var at = parser.currentTokenLocation();
            problems.add(
                "duplicate key \""
                    + name
                    + "\" at line "
                    + at.getLineNr()
                    + ", column "
                    + at.getColumnNr());
          }
          parser.nextToken();
          map.put(name, read(parser, problems));
        }
        return map;
      }
      case START_ARRAY -> {
        List<Object> list = new ArrayList<>();
        while (parser.nextToken() != JsonToken.END_ARRAY) {
          list.add(read(parser, problems));
        }
        return list;
      }
      case VALUE_STRING -> {
        return parser.getText();
      }
      case VALUE_NUMBER_INT -> {
        return parser.getLongValue();
      }
      case VALUE_NUMBER_FLOAT -> {
        return parser.getDoubleValue();
      }
      case VALUE_TRUE, VALUE_FALSE -> {
        return parser.getBooleanValue();
      }
      case VALUE_NULL -> {
        return null;
      }
      default -> throw new JsonParseException(parser, "unexpected " + token);
    }
  }
}
