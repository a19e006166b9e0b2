package dev.gpugen.write;

import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Run in a child JVM: prints whether another process holds the OS lock on the file argument. */
final class LockProbe {
  private LockProbe() {}

  public static void main(String[] args) throws Exception {
    try (FileChannel ch =
        FileChannel.open(Path.of(args[0]), StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      FileLock l = ch.tryLock();
      System.out.print(l == null ? "held" : "free");
    }
  }
}
