package dev.gpugen.inventory;

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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The inventory's JSON reading and writing, on jackson-core's streaming API alone: a cached run
 * loads no data-binding classes, which keeps its start-up short.
 */
final class Json {
  /** Duplicate keys are errors; non-ASCII is escaped so the bytes do not depend on the locale. */
  static final JsonFactory FACTORY =
      JsonFactory.builder()
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .enable(JsonWriteFeature.ESCAPE_NON_ASCII)
          .build();

  /** For files a person writes: duplicate keys are collected as problems, not thrown. */
  private static final JsonFactory LENIENT_DUPLICATES =
      JsonFactory.builder().enable(JsonWriteFeature.ESCAPE_NON_ASCII).build();

  private Json() {}

  /**
   * Like {@link #parse(byte[])}, but a duplicate key is added to {@code problems} ({@code duplicate
   * key "x" at line L, column C}; the last value wins) instead of ending the parse, so a settings
   * file's problems can all be reported at once. A syntax error still throws: nothing after it can
   * be read.
   */
  static Object parseCollecting(byte[] bytes, List<String> problems) throws IOException {
    try (JsonParser parser = LENIENT_DUPLICATES.createParser(bytes)) {
      if (parser.nextToken() == null) {
        throw new JsonParseException(parser, "no JSON value");
      }
      Object value = read(parser, problems);
      if (parser.nextToken() != null) {
        throw new JsonParseException(parser, "more than one JSON value");
      }
      return value;
    }
  }

  /** Two-space indentation, {@code "key": value}, one array element per line. */
  static DefaultPrettyPrinter prettyPrinter() {
    return new DefaultPrettyPrinter()
        .withSeparators(
            Separators.createDefaultInstance()
                .withObjectFieldValueSpacing(Separators.Spacing.AFTER))
        .withArrayIndenter(new DefaultIndenter("  ", "\n"))
        .withObjectIndenter(new DefaultIndenter("  ", "\n"));
  }

  /**
   * Parses one JSON value into {@link LinkedHashMap}, {@link ArrayList}, {@link String}, {@link
   * Long}, {@link Double}, {@link Boolean} or {@code null}.
   *
   * @throws JsonParseException with the location of the first problem
   */
  static Object parse(byte[] bytes) throws IOException {
    try (JsonParser parser = FACTORY.createParser(bytes)) {
      if (parser.nextToken() == null) {
        throw new JsonParseException(parser, "no JSON value");
      }
      Object value = read(parser, null);
      if (parser.nextToken() != null) {
        throw new JsonParseException(parser, "more than one JSON value");
      }
      return value;
    }
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

  /** What a writer does with a generator. */
  @FunctionalInterface
  interface Writer {
    void write(JsonGenerator json) throws IOException;
  }

  /** Runs {@code writer} on a generator over {@code out}. */
  static void write(OutputStream out, boolean pretty, Writer writer) throws IOException {
    try (JsonGenerator json = FACTORY.createGenerator(out)) {
      if (pretty) {
        json.setPrettyPrinter(prettyPrinter());
      }
      writer.write(json);
    }
  }

  /** The bytes {@code writer} produces, compact. */
  static byte[] bytes(Writer writer) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    write(out, false, writer);
    return out.toByteArray();
  }
}
