package dev.gpugen.spec;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where each value of a spec was written. Kept beside the model, never inside it, so that records
 * compare by value only. A path may have a key position (where {@code count:} stands) and a value
 * position (where {@code 16} stands).
 */
public final class SourceMap {
  private final String file;
  private final Map<String, Position> keys = new TreeMap<>();
  private final Map<String, Position> values = new TreeMap<>();
  private final List<Text> texts = new ArrayList<>();

  /** A string the spec file holds (a scalar or a mapping key), where it stands in the spec. */
  public record Text(SpecPath path, Position position, String text) {}

  public SourceMap(String file) {
    this.file = file;
  }

  public String file() {
    return file;
  }

  public void putKey(SpecPath path, Position p) {
    keys.putIfAbsent(path.toString(), p);
  }

  public void putValue(SpecPath path, Position p) {
    values.putIfAbsent(path.toString(), p);
  }

  /** Records a string the file holds, key or value, whatever its key and whether it binds. */
  public void putText(SpecPath path, Position position, String text) {
    texts.add(new Text(path, position, text));
  }

  /**
   * Every string the file holds, in document order: the values and keys of every section and
   * environment overlay, including those no model field reads (so a scan misses nothing).
   */
  public List<Text> texts() {
    return List.copyOf(texts);
  }

  /** The value's position, else the key's, else the nearest ancestor's, else 1:1. */
  public Position valueOf(SpecPath path) {
    return find(path, true);
  }

  /** The key's position, else the value's, else the nearest ancestor's, else 1:1. */
  public Position keyOf(SpecPath path) {
    return find(path, false);
  }

  /** Whether the spec wrote {@code path} itself (a key or a value there), not just an ancestor. */
  public boolean isWritten(SpecPath path) {
    String k = path.toString();
    return keys.containsKey(k) || values.containsKey(k);
  }

  private Position find(SpecPath path, boolean preferValue) {
    SpecPath p = path;
    while (true) {
      String k = p.toString();
      Position first = preferValue ? values.get(k) : keys.get(k);
      Position second = preferValue ? keys.get(k) : values.get(k);
      if (first != null) {
        return first;
      }
      if (second != null) {
        return second;
      }
      if (p.isRoot()) {
        return Position.START;
      }
      p = new SpecPath(p.segments().subList(0, p.segments().size() - 1));
    }
  }
}
