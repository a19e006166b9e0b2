package dev.gpugen.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A key is printed bare when it matches {@code [A-Za-z_][A-Za-z0-9_-]*} (checked by hand, not by a
 * regex, for start-up time) and quoted in brackets otherwise.
 */
class SpecPathTest {
  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '\'',
      value = {
        "instanceType | pools[0].instanceType",
        "_x | pools[0]._x",
        "Z9_- | pools[0].Z9_-",
        "a-b_c9 | pools[0].a-b_c9",
        "9lives | pools[0][\"9lives\"]",
        "-x | pools[0][\"-x\"]",
        "net.core.somaxconn | pools[0][\"net.core.somaxconn\"]",
        "nvidia.com/gpu | pools[0][\"nvidia.com/gpu\"]",
        "'a b' | pools[0][\"a b\"]",
        "caf\u00e9 | pools[0][\"caf\u00e9\"]",
        "x\u0660 | pools[0][\"x\u0660\"]",
        "'' | pools[0][\"\"]",
        "'say \"hi\"' | pools[0][\"say \\\"hi\\\"\"]",
      })
  void plainKeysPrintBareAndOthersQuoted(String key, String printed) {
    assertEquals(printed, SpecPath.of("pools", 0, key).toString());
    // The rule the hand-written check stands for.
    assertEquals(
        key.matches("[A-Za-z_][A-Za-z0-9_-]*"), !printed.endsWith("\"]"), "bare iff plain: " + key);
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource({"name, name", "9, [\"9\"]"})
  void aPlainFirstKeyHasNoLeadingDot(String key, String printed) {
    assertEquals(printed, SpecPath.of(key).toString());
  }
}
