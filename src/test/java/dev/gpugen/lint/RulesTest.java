package dev.gpugen.lint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The naming convention stated in {@link Rules}: an id leads straight to its class. */
class RulesTest {
  @Test
  void everyRuleLivesInItsFamilyPackageUnderTheClassNameOfItsId() {
    assertTrue(Rules.all().size() > 50, "the rule list is not empty");
    for (Rule r : Rules.all()) {
      String[] words = r.id().split("-");
      String expected =
          "dev.gpugen.lint.rules."
              + words[0]
              + "."
              + Arrays.stream(words)
                  .map(w -> Character.toUpperCase(w.charAt(0)) + w.substring(1))
                  .collect(Collectors.joining());
      assertEquals(expected, r.getClass().getName(), "class of rule " + r.id());
    }
  }

  @Test
  void byIdFindsEveryListedRuleAndNothingElse() {
    for (Rule r : Rules.all()) {
      assertSame(r, Rules.byId(r.id()).orElseThrow());
    }
    assertTrue(Rules.byId("nccl-no-such-rule").isEmpty());
  }
}
