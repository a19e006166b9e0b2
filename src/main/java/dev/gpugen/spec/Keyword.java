package dev.gpugen.spec;

import java.util.Arrays;
import java.util.List;

/**
 * An enum of the spec whose constants are written as words of the spec ({@code on-demand}, not
 * {@code ON_DEMAND}): the grammar offers exactly these spellings, the reader binds them to the
 * constant, and the canonical fingerprint writes the spelling, so renaming a constant changes
 * nothing a user or a node sees.
 */
public interface Keyword {
  /** The word as the spec writes it. */
  String spelling();

  /** Every spelling of {@code type}, in declaration order: the grammar's list of values. */
  static <E extends Enum<E> & Keyword> List<String> spellings(Class<E> type) {
    return Arrays.stream(type.getEnumConstants()).map(Keyword::spelling).toList();
  }

  /**
   * The constant spelt {@code word}.
   *
   * @throws IllegalArgumentException for a word the grammar does not offer (the binder has refused
   *     it already, so this is a bug in gpugen)
   */
  static <E extends Enum<E> & Keyword> E of(Class<E> type, String word) {
    for (E e : type.getEnumConstants()) {
      if (e.spelling().equals(word)) {
        return e;
      }
    }
    throw new IllegalArgumentException(type.getSimpleName() + " has no " + word);
  }
}
