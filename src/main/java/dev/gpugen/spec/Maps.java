package dev.gpugen.spec;

import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/** Immutable sorted copies, so every map in the model iterates in the same order everywhere. */
final class Maps {
  private Maps() {}

  static SortedMap<String, String> sorted(Map<String, String> m) {
    return Collections.unmodifiableSortedMap(new TreeMap<>(m));
  }
}
