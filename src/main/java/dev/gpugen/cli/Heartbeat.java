package dev.gpugen.cli;

import java.time.Duration;
import java.util.Objects;

/**
 * When a wait prints its progress: whenever the line changes, and at least once per interval while
 * it does not, so a long wait never looks hung. Time is passed in (nanoseconds), so the rule is
 * tested without a clock.
 */
final class Heartbeat {
  private final Duration interval;
  private String last;
  private long printedAt;

  Heartbeat(Duration interval) {
    this.interval = Objects.requireNonNull(interval, "interval");
  }

  Duration interval() {
    return interval;
  }

  /** Whether {@code line} is to be printed at {@code now}; if so, it counts as printed. */
  synchronized boolean due(String line, long now) {
    if (line.equals(last) && now - printedAt < interval.toNanos()) {
      return false;
    }
    last = line;
    printedAt = now;
    return true;
  }

  /**
   * {@code 24 min left}, {@code 23 min 30 s left}, {@code 40 s left}, or {@code time is up}: whole
   * seconds, rounded up, so heartbeats 30 s apart never repeat the same time.
   */
  static String left(long nanos) {
    if (nanos <= 0) {
      return "time is up";
    }
    long seconds = (nanos + 999_999_999L) / 1_000_000_000L;
    if (seconds < 60) {
      return seconds + " s left";
    }
    return seconds / 60 + " min" + (seconds % 60 == 0 ? "" : " " + seconds % 60 + " s") + " left";
  }

  /** Calls {@code tick} every interval on a daemon thread, between start and stop. */
  static final class Ticker {
    private final Duration interval;
    private final Runnable tick;
    private Thread thread;

    Ticker(Duration interval, Runnable tick) {
      this.interval = interval;
      this.tick = tick;
    }

    void start() {
      long millis = Math.max(1, interval.toMillis());
      thread =
          new Thread(
              () -> {
                try {
                  while (!Thread.currentThread().isInterrupted()) {
                    Thread.sleep(millis);
                    tick.run();
                  }
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              });
      thread.setDaemon(true);
      thread.start();
    }

    void stop() {
      if (thread != null) {
        thread.interrupt();
        try {
          thread.join(1000);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }
}
