package dev.gpugen.report;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.gpugen.failure.InvalidInput;
import dev.gpugen.json.Json;
import dev.gpugen.spec.Printable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Reads one report, keeping where each value was written, so that a report that is not what play 05
 * writes is refused with its file, line and column and what was expected there.
 */
final class ReportParser {
  /** A JSON value and where it starts. Scalars keep their text as written. */
  private record Value(Object value, JsonToken token, int line, int column) {}

  private final String file;

  private ReportParser(String file) {
    this.file = file;
  }

  static HostReport parse(String file, byte[] bytes) {
    return new ReportParser(file).report(bytes);
  }

  private HostReport report(byte[] bytes) {
    Value root;
    try (JsonParser p = Json.STRICT.createParser(bytes)) {
      if (p.nextToken() == null) {
        throw error(1, 1, "the file is empty; a report is a JSON object written by play 05");
      }
      root = read(p);
      if (p.nextToken() != null) {
        JsonLocation at = p.currentTokenLocation();
        throw error(at.getLineNr(), at.getColumnNr(), "more than one JSON value");
      }
    } catch (JsonParseException e) {
      JsonLocation at = e.getLocation();
      throw error(
          at == null ? 1 : at.getLineNr(),
          at == null ? 1 : at.getColumnNr(),
          "not valid JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw error(1, 1, "not valid JSON: " + e.getMessage());
    }
    Map<String, Value> top = object(root, "the report");
    String host = text(required(top, root, "host"), "host");
    if (host.isBlank()) {
      Value v = top.get("host");
      throw error(v.line(), v.column(), "host is empty; it names the inventory host");
    }
    Value passed = required(top, root, "passed");
    if (passed.token() != JsonToken.VALUE_TRUE && passed.token() != JsonToken.VALUE_FALSE) {
      throw error(passed.line(), passed.column(), "passed must be true or false");
    }
    Value checksValue = required(top, root, "checks");
    List<Check> checks = new ArrayList<>();
    for (Map.Entry<String, Value> e : object(checksValue, "checks").entrySet()) {
      checks.add(check(e.getKey(), e.getValue()));
    }
    checks.sort((a, b) -> Checks.BY_ORDER.compare(a.name(), b.name()));
    Map<String, String> versions = new TreeMap<>();
    if (top.containsKey("versions") && top.get("versions").token() != JsonToken.VALUE_NULL) {
      object(top.get("versions"), "versions")
          .forEach((k, v) -> versions.put(k, text(v, "versions." + k)));
    }
    return new HostReport(
        file,
        host,
        optional(top, "pool"),
        optional(top, "cluster"),
        passed.token() == JsonToken.VALUE_TRUE,
        checks,
        optional(top, "validated_at"),
        optional(top, "spec_sha256"),
        new TreeMap<>(versions));
  }

  private Check check(String name, Value v) {
    Map<String, Value> fields = object(v, "checks." + name);
    String status =
        text(required(fields, v, "status", "checks." + name), "checks." + name + ".status");
    SortedMap<String, Double> figures = new TreeMap<>();
    fields.forEach(
        (k, f) -> {
          if (f.token() == JsonToken.VALUE_NUMBER_INT
              || f.token() == JsonToken.VALUE_NUMBER_FLOAT) {
            double d = Double.parseDouble((String) f.value());
            if (Double.isFinite(d)) {
              figures.put(k, d);
            }
          }
        });
    return new Check(
        name,
        Status.of(status),
        status,
        optional(fields, "expected"),
        optional(fields, "measured"),
        figures);
  }

  private Value required(Map<String, Value> object, Value where, String key) {
    return required(object, where, key, "the report");
  }

  private Value required(Map<String, Value> object, Value where, String key, String what) {
    Value v = object.get(key);
    if (v == null) {
      throw error(where.line(), where.column(), what + " has no \"" + key + "\"");
    }
    return v;
  }

  @SuppressWarnings("unchecked")
  private Map<String, Value> object(Value v, String what) {
    if (v.token() != JsonToken.START_OBJECT) {
      throw error(v.line(), v.column(), what + " must be a JSON object");
    }
    return (Map<String, Value>) v.value();
  }

  /** A scalar as text (numbers as written); an object, array or null is an error. */
  private String text(Value v, String what) {
    if (v.value() instanceof String s) {
      return s;
    }
    throw error(v.line(), v.column(), what + " must be a string");
  }

  /** A scalar field as text, "" when absent or null. */
  private String optional(Map<String, Value> object, String key) {
    Value v = object.get(key);
    return v == null || v.token() == JsonToken.VALUE_NULL ? "" : text(v, key);
  }

  private Value read(JsonParser p) throws IOException {
    JsonLocation at = p.currentTokenLocation();
    int line = at.getLineNr();
    int column = at.getColumnNr();
    JsonToken token = p.currentToken();
    switch (token) {
      case START_OBJECT -> {
        Map<String, Value> map = new LinkedHashMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String name = p.currentName();
          p.nextToken();
          map.put(name, read(p));
        }
        return new Value(map, token, line, column);
      }
      case START_ARRAY -> {
        List<Value> list = new ArrayList<>();
        while (p.nextToken() != JsonToken.END_ARRAY) {
          list.add(read(p));
        }
        return new Value(list, token, line, column);
      }
      case VALUE_NULL -> {
        return new Value(null, token, line, column);
      }
      default -> {
        return new Value(p.getText(), token, line, column);
      }
    }
  }

  private InvalidInput error(int line, int column, String message) {
    return new InvalidInput(
        Printable.text(file) + ":" + line + ":" + column + ": " + Printable.text(message));
  }
}
