package dev.gpugen.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gpugen.TestSpecs;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Spec words bind to enum constants and are written back as the spec spells them. */
class KeywordTest {
  @Test
  void marketIsBoundFromItsSpellingAndOnlyThose() {
    assertEquals(
        List.of("on-demand", "spot", "capacity-block", "flex-start", "flex-start-queued"),
        Keyword.spellings(Market.class));
    assertEquals(Market.SPOT, Keyword.of(Market.class, "spot"));
    assertThrows(IllegalArgumentException.class, () -> Keyword.of(Market.class, "SPOT"));
    ClusterSpec s =
        TestSpecs.parse(
            DefaultsTest.MINIMAL.replace(
                "instanceType: p4d.24xlarge}", "instanceType: p4d.24xlarge, market: spot}"));
    assertEquals(Market.SPOT, s.pools().get(0).market());
  }
}
