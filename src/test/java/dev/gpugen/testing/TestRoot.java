package dev.gpugen.testing;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Debootstrap roots for chroot playbook runs, each an overlayfs mount: the cached template root
 * ({@code scripts/make-test-root}) as the read-only lower layer, and whatever a test writes in an
 * upper layer of its own. A fresh root costs one {@code mount} instead of copying 271 MB, and the
 * template is never written. {@link Converged} stacks roots on a frozen converged layer the same
 * way.
 *
 * <p>Every root is unmounted and its layer deleted after the test that mounted it ({@link
 * ChrootTest} registers {@link Cleanup}), also when it fails; a JVM shutdown hook unmounts what is
 * left, and the first mount of a JVM unmounts what a killed JVM left behind. Layers live under
 * {@code $TMPDIR/gpugen-test-roots/<pid>/}, so no run touches another one's roots.
 */
public final class TestRoot {
  private TestRoot() {}

  /** Where the layers of this JVM's roots live. */
  static final Path LAYERS =
      Path.of(System.getProperty("java.io.tmpdir"), "gpugen-test-roots")
          .resolve(Long.toString(ProcessHandle.current().pid()));

  private static final Duration MOUNT_TIMEOUT = Duration.ofMinutes(1);
  private static final AtomicInteger COUNTER = new AtomicInteger();

  /** Mounted roots by owner: a test method, its class, or (bottom) the JVM. */
  private static final Deque<List<Path>> SCOPES = new ArrayDeque<>(List.of(new ArrayList<>()));

  private static boolean started;

  /**
   * Mounts a fresh root at {@code dir} (created if missing) with the host's current resolver, and
   * returns {@code dir}. Unmounted after the test; {@link #delete} does it earlier.
   */
  public static Path fresh(Path dir) throws IOException, InterruptedException {
    return mount(List.of(), dir);
  }

  /** Unmounts a root and deletes its upper layer; refuses if anything is mounted inside it. */
  public static void delete(Path root) throws IOException, InterruptedException {
    synchronized (TestRoot.class) {
      for (List<Path> scope : SCOPES) {
        scope.remove(root);
      }
    }
    unmount(root);
  }

  /**
   * Unmounts a root but keeps its upper layer, to be a lower layer of later roots ({@link
   * Converged}); returns that layer. It is deleted when the JVM exits.
   */
  static Path freeze(Path root) throws IOException, InterruptedException {
    synchronized (TestRoot.class) {
      for (List<Path> scope : SCOPES) {
        scope.remove(root);
      }
    }
    return unmount(root, true).resolve("upper");
  }

  /**
   * Mounts a root at {@code dir} whose lower layers are {@code layers} (topmost first) over the
   * template. Layers must not change while any root uses them.
   */
  static Path mount(List<Path> layers, Path dir) throws IOException, InterruptedException {
    RealTools.requireTag(ChrootTest.TAG, "mounts a test root at " + dir);
    Path template = RealTools.testRootTemplate();
    startOnce();
    Path layer = LAYERS.resolve("root-" + COUNTER.incrementAndGet());
    Files.createDirectories(layer.resolve("upper"));
    Files.createDirectories(layer.resolve("work"));
    Files.createDirectories(dir);
    List<Path> lower = new ArrayList<>(layers);
    lower.add(template);
    StringBuilder lowerdir = new StringBuilder();
    for (Path p : lower) {
      lowerdir.append(lowerdir.length() == 0 ? "" : ":").append(safe(p));
    }
    RealTools.Result r =
        RealTools.system(
            MOUNT_TIMEOUT,
            "mount",
            "-t",
            "overlay",
            "overlay",
            "-o",
            "lowerdir="
                + lowerdir
                + ",upperdir="
                + safe(layer.resolve("upper"))
                + ",workdir="
                + safe(layer.resolve("work")),
            dir.toString());
    if (r.exitCode() != 0) {
      fail("could not mount an overlay test root at " + dir + ": " + r.output());
    }
    synchronized (TestRoot.class) {
      SCOPES.peek().add(dir);
    }
    // The apt module inside may fetch from the Debian mirror: today's resolver, not the one of the
    // day the template was built.
    Files.copy(
        Path.of("/etc/resolv.conf"),
        dir.resolve("etc/resolv.conf"),
        StandardCopyOption.REPLACE_EXISTING);
    return dir;
  }

  /** The upper layer of a mounted root: what was written in it, whiteouts included. */
  static Path upper(Path root) throws IOException, InterruptedException {
    Matcher m = UPPERDIR.matcher(options(root));
    if (!m.find()) {
      fail(root + " is not an overlay test root");
    }
    return Path.of(m.group(1));
  }

  /**
   * Unmounts {@code root} (an overlay of this JVM) and deletes its upper and work layers, unless
   * {@code keepUpper}; returns the layer folder.
   */
  static Path unmount(Path root, boolean keepUpper) throws IOException, InterruptedException {
    Path upper = upper(root);
    for (String line : mounts()) {
      String target = line.split(" ", 2)[0];
      if (target.startsWith(root + "/")) {
        fail("still mounted inside the test root: " + target);
      }
    }
    RealTools.Result r = RealTools.system(MOUNT_TIMEOUT, "umount", root.toString());
    if (r.exitCode() != 0) {
      // Detach it anyway, so nothing outlives the run, and say why the test fails.
      RealTools.system(MOUNT_TIMEOUT, "umount", "--lazy", root.toString());
      fail("could not unmount the test root " + root + " (a process still inside?): " + r.output());
    }
    Path layer = upper.getParent();
    remove(layer.resolve("work"));
    if (!keepUpper) {
      remove(layer);
    }
    Files.deleteIfExists(root);
    return layer;
  }

  private static void unmount(Path root) throws IOException, InterruptedException {
    unmount(root, false);
  }

  private static void remove(Path dir) throws IOException, InterruptedException {
    RealTools.system(Duration.ofMinutes(5), "rm", "-rf", "--one-file-system", "--", dir.toString())
        .assertOk();
  }

  /** Overlay paths cannot carry the option separators; temp folders never do. */
  private static String safe(Path p) {
    String s = p.toString();
    if (s.contains(":") || s.contains(",") || s.contains("\\")) {
      fail("a test root layer path with ':', ',' or '\\': " + s);
    }
    return s;
  }

  private static final Pattern UPPERDIR = Pattern.compile("(?:^|,)upperdir=([^,]+)");

  private static String options(Path root) throws IOException, InterruptedException {
    for (String line : mounts()) {
      String[] f = line.split(" ", 2);
      if (f[0].equals(root.toString()) && f.length == 2) {
        return f[1];
      }
    }
    return "";
  }

  /** Overlay mounts as "TARGET OPTIONS" lines (findmnt writes a space in a path as \x20). */
  private static List<String> mounts() throws IOException, InterruptedException {
    RealTools.Result r =
        RealTools.system(MOUNT_TIMEOUT, "findmnt", "-rn", "-t", "overlay", "-o", "TARGET,OPTIONS");
    return r.output().lines().filter(l -> !l.isBlank()).toList();
  }

  /**
   * On the first mount of this JVM: unmounts the roots of test JVMs that no longer run (killed by a
   * timeout, say), and installs the hook that unmounts this JVM's roots when it exits.
   */
  private static synchronized void startOnce() throws IOException, InterruptedException {
    if (started) {
      return;
    }
    started = true;
    Path base = LAYERS.getParent();
    for (String line : mounts()) {
      String[] f = line.split(" ", 2);
      Matcher m = UPPERDIR.matcher(f.length == 2 ? f[1] : "");
      if (m.find() && Path.of(m.group(1)).startsWith(base)) {
        String pid = base.relativize(Path.of(m.group(1))).getName(0).toString();
        if (ProcessHandle.of(Long.parseLong(pid)).isEmpty()) {
          RealTools.system(MOUNT_TIMEOUT, "umount", "--lazy", f[0]);
        }
      }
    }
    if (Files.isDirectory(base)) {
      try (var dirs = Files.list(base)) {
        for (Path d : dirs.toList()) {
          String name = d.getFileName().toString();
          if (name.matches("\\d+") && ProcessHandle.of(Long.parseLong(name)).isEmpty()) {
            remove(d);
          }
        }
      }
    }
    Runtime.getRuntime().addShutdownHook(new Thread(TestRoot::releaseAll, "gpugen-test-roots"));
  }

  /** The shutdown hook: every root this JVM still has mounted, then every layer it made. */
  private static void releaseAll() {
    try {
      List<Path> left = new ArrayList<>();
      synchronized (TestRoot.class) {
        SCOPES.forEach(left::addAll);
        SCOPES.forEach(List::clear);
      }
      for (Path root : left) {
        RealTools.system(MOUNT_TIMEOUT, "umount", "--lazy", root.toString());
      }
      RealTools.system(
          Duration.ofMinutes(5), "rm", "-rf", "--one-file-system", "--", LAYERS.toString());
    } catch (IOException | InterruptedException | AssertionError e) {
      System.err.println("gpugen test roots: cleanup at exit failed: " + e);
    }
  }

  private static synchronized void open() {
    SCOPES.push(new ArrayList<>());
  }

  private static void close() throws IOException, InterruptedException {
    List<Path> roots;
    synchronized (TestRoot.class) {
      roots = SCOPES.size() > 1 ? SCOPES.pop() : List.of();
    }
    List<String> failures = new ArrayList<>();
    for (Path root : roots) {
      try {
        unmount(root);
      } catch (AssertionError e) {
        failures.add(e.getMessage());
      }
    }
    if (!failures.isEmpty()) {
      fail(String.join("\n", failures));
    }
  }

  /**
   * Unmounts the roots a test mounted when it ends, passed or failed; those of its
   * {@code @BeforeAll} when the class ends. {@link ChrootTest} registers it.
   */
  public static final class Cleanup
      implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {
    @Override
    public void beforeAll(ExtensionContext context) {
      open();
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
      close();
    }

    @Override
    public void beforeEach(ExtensionContext context) {
      open();
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
      close();
    }
  }
}
