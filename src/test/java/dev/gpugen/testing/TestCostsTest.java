package dev.gpugen.testing;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import org.junit.jupiter.api.Test;

class TestCostsTest {
  /** The four CPU fields are read, not the fields beside them (start time, priority...). */
  @Test
  void cpuTicksGrowWithWorkDoneAndOnlyWithIt() {
    long before = TestCosts.cpuTicks();
    assertTrue(before > 0, "no CPU time read from /proc/self/stat: " + before);
    // This thread's own CPU time is part of the process's: 300 ms of it is 30 ticks at 100 Hz.
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long start = threads.getCurrentThreadCpuTime();
    long x = 0;
    while (threads.getCurrentThreadCpuTime() - start < 300_000_000L) {
      x += Long.numberOfTrailingZeros(x + start);
    }
    long after = TestCosts.cpuTicks();
    // Tick accounting rounds; other JVM threads add a little, never 100 s.
    assertTrue(after - before >= 25 && after - before < 10_000, before + " -> " + after + " " + x);
  }
}
