package dev.gpugen.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.testing.RealTools;
import dev.gpugen.testing.RealToolsTest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Starts a second JVM, so it runs with the tool tests. */
@RealToolsTest
class LockTest {
  @TempDir Path tmp;

  /** What another process sees of the OS lock on the folder's lock file. */
  private static String probe(Path file) throws Exception {
    Process p =
        RealTools.start(
            new ProcessBuilder(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp",
                    System.getProperty("java.class.path"),
                    LockProbe.class.getName(),
                    file.toString())
                .redirectErrorStream(true));
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS));
    return out;
  }

  @Test
  void aThreadWaitingInTheSameJvmDoesNotFreeTheLockForOtherProcesses() throws Exception {
    Path out = tmp.resolve("out");
    Path file = Lock.fileFor(out);
    CompletableFuture<Void> second;
    Lock first = Lock.acquire(out);
    try {
      assertEquals("held", probe(file), "the probe must see a held lock at all");
      second =
          CompletableFuture.runAsync(
              () -> {
                try {
                  Lock.acquire(out).close();
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });
      // The waiter retries every 50 ms; let it try several times while the first holds the lock.
      Thread.sleep(500);
      assertEquals("held", probe(file), "another process can take the lock the first one holds");
    } finally {
      first.close();
    }
    second.get(60, TimeUnit.SECONDS);
    assertTrue(Files.notExists(file), "the lock file is removed on release");
  }
}
