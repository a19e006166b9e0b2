package dev.gpugen.render;

import java.util.Arrays;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Everything one render produces, in memory: relative path → bytes. Nothing touches the disk until
 * the whole tree rendered without error.
 */
public record RenderedTree(SortedMap<String, RenderedTree.File> files) {
  public RenderedTree {
    files = Collections.unmodifiableSortedMap(new TreeMap<>(files));
  }

  /** One output file; executables (scripts with a #! line) get mode 0755. */
  public record File(byte[] content, boolean executable) {
    public File {
      Objects.requireNonNull(content);
      content = content.clone();
    }

    @Override
    public byte[] content() {
      return content.clone();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof File f && f.executable == executable && Arrays.equals(f.content, content);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(content) * 31 + Boolean.hashCode(executable);
    }

    @Override
    public String toString() {
      return "File[" + content.length + " bytes" + (executable ? ", executable" : "") + "]";
    }
  }

  public static RenderedTree of(Map<String, File> files) {
    return new RenderedTree(new TreeMap<>(files));
  }
}
