package dev.gpugen.inventory;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BoundedFilesTest {
  @TempDir Path tmp;

  @Test
  void readsAFileWhole() throws Exception {
    Random random = new Random(7);
    for (int size : new int[] {0, 1, 8191, 8192, 8193, 3 << 20}) {
      byte[] content = new byte[size];
      random.nextBytes(content);
      Path f = Files.write(tmp.resolve("f" + size), content);
      assertArrayEquals(content, BoundedFiles.read(f, size, "test file"), "size " + size);
      assertArrayEquals(content, BoundedFiles.read(f, size + 10L, "test file"), "size " + size);
    }
  }

  @Test
  void refusesWhatIsNotARegularFileOrTooLarge() throws Exception {
    Path f = Files.write(tmp.resolve("f"), new byte[100]);
    BoundedFiles.NotAFileException large =
        assertThrows(BoundedFiles.NotAFileException.class, () -> BoundedFiles.read(f, 99, "cache"));
    assertTrue(large.getMessage().contains("larger than 99 bytes"), large.getMessage());
    assertThrows(
        BoundedFiles.NotAFileException.class,
        () -> BoundedFiles.read(tmp, 1 << 20, "cache", LinkOption.NOFOLLOW_LINKS));
    // /dev/zero is endless: refused at once, never read.
    assertThrows(
        BoundedFiles.NotAFileException.class,
        () -> BoundedFiles.read(Path.of("/dev/zero"), 1 << 20, "cache"));
  }
}
