package dev.gpugen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** When a wait speaks: on every change, and at least once per interval (time passed in). */
class HeartbeatTest {
  private static final long SECOND = 1_000_000_000L;

  @Test
  void aChangedLineIsPrintedAtOnceAndAnUnchangedOneEveryInterval() {
    Heartbeat h = new Heartbeat(Duration.ofSeconds(30));
    assertTrue(h.due("0/16 nodes running", 0), "the first line");
    assertFalse(h.due("0/16 nodes running", 29 * SECOND), "unchanged, within the interval");
    assertTrue(h.due("0/16 nodes running", 30 * SECOND), "unchanged, an interval later");
    assertTrue(h.due("4/16 nodes running", 31 * SECOND), "changed: at once");
    assertFalse(h.due("4/16 nodes running", 60 * SECOND));
    assertTrue(h.due("4/16 nodes running", 61 * SECOND));
  }

  /** The default is well inside "at least once a minute". */
  @Test
  void theDefaultIntervalIsUnderAMinute() {
    assertTrue(Deploy.Context.system().heartbeat().compareTo(Duration.ofMinutes(1)) < 0);
  }

  /**
   * Whole seconds, rounded up, shown as minutes and seconds: two heartbeats 30 s apart never print
   * the same time left (whole minutes rounded up printed "30 min left" twice).
   */
  @Test
  void theTimeLeftIsInMinutesAndSecondsRoundedUpToTheSecond() {
    assertEquals("30 min left", Heartbeat.left(30 * 60 * SECOND));
    assertEquals("29 min 30 s left", Heartbeat.left(29 * 60 * SECOND + 30 * SECOND));
    assertEquals("30 min left", Heartbeat.left(29 * 60 * SECOND + 59 * SECOND + 1));
    assertEquals("23 min 1 s left", Heartbeat.left(23 * 60 * SECOND + 1));
    assertEquals("1 min left", Heartbeat.left(60 * SECOND));
    assertEquals("59 s left", Heartbeat.left(59 * SECOND));
    assertEquals("1 s left", Heartbeat.left(1));
    assertEquals("time is up", Heartbeat.left(0));
  }
}
