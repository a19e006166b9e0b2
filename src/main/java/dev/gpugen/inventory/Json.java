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

  private Json() {}

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
      Object value = read(parser);
      if (parser.nextToken() != null) {
        throw new JsonParseException(parser, "more than one JSON value");
      }
      return value;
    }
  }

  private static Object read(JsonParser parser) throws IOException {
    JsonToken token = parser.currentToken();
    switch (token) {
      case START_OBJECT -> {
        Map<String, Object> map = new LinkedHashMap<>();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
          String name = parser.currentName();
          parser.nextToken();
          map.put(name, read(parser));
        }
        return map;
      }
      case START_ARRAY -> {
        List<Object> list = new ArrayList<>();
        while (parser.nextToken() != JsonToken.END_ARRAY) {
          list.add(read(parser));
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
