package dev.gpugen.compat;

import dev.gpugen.failure.InternalFailure;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code compat.yaml} as the build leaves it in the jar ({@code compat.tree}): the same tree of
 * mappings, lists and text that the YAML loader produces, in a binary form that loads without a
 * YAML parser. Parsing the YAML was a large part of every start; reading this is a few
 * milliseconds. {@code compat.yaml}, with its sources, stays the one file people edit: the build
 * ({@code process-classes}, see pom.xml) runs {@link #main} to write the tree, after checking that
 * the YAML makes a valid table, and {@code CompatTreeTest} checks that the tree in the jar is the
 * YAML's.
 *
 * <p>Format: the header {@value #HEADER}, then one node: {@code 'M'} count (key, node)…, {@code
 * 'L'} count node…, {@code 'S'} text (modified UTF-8), or {@code 'N'} (null).
 */
public final class CompatTree {
  static final String RESOURCE = "compat.tree";
  static final String HEADER = "gpugen compat tree 1";

  private CompatTree() {}

  /**
   * Build step: {@code CompatTree YAML OUT} checks the table and writes its tree to OUT.
   *
   * @throws InternalFailure naming the row and key that are wrong, which fails the build
   */
  public static void main(String[] args) throws IOException {
    if (args.length != 2) {
      throw new IllegalArgumentException("usage: CompatTree compat.yaml compat.tree");
    }
    Path yaml = Path.of(args[0]);
    String label = yaml.getFileName().toString();
    Object tree = CompatYaml.readTree(Files.readString(yaml, StandardCharsets.UTF_8), label);
    CompatYaml.fromTree(tree, label);
    Path out = Path.of(args[1]);
    Files.createDirectories(out.getParent());
    try (DataOutputStream data =
        new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(out)))) {
      write(tree, data);
    }
  }

  static void write(Object tree, DataOutputStream out) throws IOException {
    out.writeUTF(HEADER);
    node(tree, out);
  }

  private static void node(Object value, DataOutputStream out) throws IOException {
    if (value == null) {
      out.writeByte('N');
    } else if (value instanceof String s) {
      out.writeByte('S');
      out.writeUTF(s);
    } else if (value instanceof List<?> list) {
      out.writeByte('L');
      out.writeInt(list.size());
      for (Object item : list) {
        node(item, out);
      }
    } else if (value instanceof Map<?, ?> map) {
      out.writeByte('M');
      out.writeInt(map.size());
      for (Map.Entry<?, ?> e : map.entrySet()) {
        if (!(e.getKey() instanceof String key)) {
          throw new InternalFailure("compat tree: keys must be text, got " + e.getKey());
        }
        out.writeUTF(key);
        node(e.getValue(), out);
      }
    } else {
      throw new InternalFailure(
          "compat tree: unexpected " + value.getClass().getSimpleName() + " " + value);
    }
  }

  /** Reads a tree written by {@link #write}: maps keep their order. */
  static Object read(InputStream in) throws IOException {
    DataInputStream data = new DataInputStream(new BufferedInputStream(in));
    String header = data.readUTF();
    if (!header.equals(HEADER)) {
      throw new IOException("not a " + HEADER + " file (header \"" + header + "\")");
    }
    return node(data);
  }

  private static Object node(DataInputStream in) throws IOException {
    int tag = in.readByte();
    switch (tag) {
      case 'N':
        return null;
      case 'S':
        return in.readUTF();
      case 'L':
        {
          int n = in.readInt();
          List<Object> list = new ArrayList<>(n);
          for (int i = 0; i < n; i++) {
            list.add(node(in));
          }
          return list;
        }
      case 'M':
        {
          int n = in.readInt();
          Map<String, Object> map = new LinkedHashMap<>();
          for (int i = 0; i < n; i++) {
            String key = in.readUTF();
            map.put(key, node(in));
          }
          return map;
        }
      default:
        throw new IOException("corrupt tree: tag " + tag);
    }
  }
}
