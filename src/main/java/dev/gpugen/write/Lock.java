package dev.gpugen.write;

import dev.gpugen.failure.Failure;
import dev.gpugen.failure.InvalidInput;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * One writer per output folder: an OS lock on {@code .gpugen-lock-NAME} beside the folder. The OS
 * drops the lock when its process dies, so a killed run never blocks the next. The file is deleted
 * on release (a committed {@code roles-generated/} stays clean); a waiter that then holds the lock
 * of a deleted file notices it by the token it writes not being what the path holds, and retries.
 *
 * <p>Threads of one JVM wait for each other before they open the file at all: the OS lock is a
 * POSIX record lock, which belongs to the process and is dropped when the process closes any
 * descriptor of the file, so a waiting thread that opened and closed the file would free the lock
 * another thread holds for every other process.
 */
final class Lock implements AutoCloseable {
  /** How long a render waits for another one writing the same folder. */
  static final long WAIT_MILLIS = 60_000;

  /** The lock files a thread of this JVM holds or is acquiring. */
  private static final Set<Path> CLAIMED = new HashSet<>();

  private final Path file;
  private final Path claim;
  private final FileChannel channel;
  private final FileLock lock;
  private final FileChannel check;

  private Lock(Path file, Path claim, FileChannel channel, FileLock lock, FileChannel check) {
    this.file = file;
    this.claim = claim;
    this.channel = channel;
    this.lock = lock;
    this.check = check;
  }

  static Path fileFor(Path out) {
    return out.resolveSibling(".gpugen-lock-" + out.getFileName());
  }

  static Lock acquire(Path out) throws IOException, Failure {
    Path file = fileFor(out);
    long deadline = System.nanoTime() + WAIT_MILLIS * 1_000_000;
    Path claim = claim(file, deadline, out);
    boolean locked = false;
    try {
      Lock lock = lockFile(file, claim, deadline, out);
      locked = true;
      return lock;
    } finally {
      if (!locked) {
        unclaim(claim);
      }
    }
  }

  /** Waits until no other thread of this JVM holds or acquires the lock file. */
  private static Path claim(Path file, long deadline, Path out) throws IOException {
    Path abs = file.toAbsolutePath().normalize();
    Path dir = abs.getParent();
    // The real folder, so two spellings of one folder are one claim.
    Path key = Files.isDirectory(dir) ? dir.toRealPath().resolve(abs.getFileName()) : abs;
    synchronized (CLAIMED) {
      while (!CLAIMED.add(key)) {
        long left = (deadline - System.nanoTime()) / 1_000_000;
        if (left <= 0) {
          throw busy(out, file);
        }
        try {
          CLAIMED.wait(left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted while waiting for " + file, e);
        }
      }
    }
    return key;
  }

  private static void unclaim(Path key) {
    synchronized (CLAIMED) {
      CLAIMED.remove(key);
      CLAIMED.notifyAll();
    }
  }

  private static IOException busy(Path out, Path file) {
    return new IOException(
        "another gpugen has been writing "
            + out
            + " for "
            + WAIT_MILLIS / 1000
            + " s (it holds "
            + file
            + "); wait for it to finish");
  }

  private static Lock lockFile(Path file, Path claim, long deadline, Path out)
      throws IOException, Failure {
    while (true) {
      if (Files.isSymbolicLink(file)) {
        throw new InvalidInput(
            file + " is a symbolic link; gpugen does not lock through links: remove it");
      }
      FileChannel ch =
          FileChannel.open(
              file,
              StandardOpenOption.CREATE,
              StandardOpenOption.WRITE,
              StandardOpenOption.READ,
              LinkOption.NOFOLLOW_LINKS);
      boolean keep = false;
      try {
        FileLock l = ch.tryLock();
        if (l != null) {
          byte[] token = UUID.randomUUID().toString().getBytes(StandardCharsets.US_ASCII);
          ch.truncate(0);
          ch.write(ByteBuffer.wrap(token), 0);
          ch.force(false);
          Optional<FileChannel> check = holds(file, token);
          if (check.isPresent()) {
            keep = true;
            return new Lock(file, claim, ch, l, check.get());
          }
          l.release();
        }
      } finally {
        if (!keep) {
          ch.close();
        }
      }
      if (System.nanoTime() > deadline) {
        throw busy(out, file);
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while waiting for " + file, e);
      }
    }
  }

  /**
   * Whether the path still names the file we locked: it holds the token only we wrote. The channel
   * that read it stays open until the lock is released: the lock is a POSIX record lock, which the
   * OS drops when the process closes any descriptor of the file, so closing this one now would free
   * the lock for the next process while this one still writes.
   */
  private static Optional<FileChannel> holds(Path file, byte[] token) throws IOException {
    FileChannel read;
    try {
      read = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
    ByteBuffer b = ByteBuffer.allocate(token.length + 1);
    while (b.hasRemaining() && read.read(b) > 0) {
      // read the token, and one byte more if there is one
    }
    if (b.position() == token.length
        && Arrays.equals(Arrays.copyOf(b.array(), token.length), token)) {
      return Optional.of(read);
    }
    // Not ours: the lock is released right after, so closing this descriptor costs nothing.
    read.close();
    return Optional.empty();
  }

  @Override
  public void close() throws IOException {
    try {
      // Delete while still holding the lock: nobody else can be the owner of this path now.
      Files.deleteIfExists(file);
    } finally {
      try {
        lock.release();
        check.close();
        channel.close();
      } finally {
        unclaim(claim);
      }
    }
  }
}
