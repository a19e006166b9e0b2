package dev.gpugen.testing;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * A playbook converged once on chroot hosts, checked idempotent, and frozen: the state several
 * tests start from, computed once per JVM for each distinct input. The runs happen on fresh {@link
 * TestRoot}s; afterwards each host's upper layer is frozen and {@link #root} stacks a writable root
 * on it for every test that asks, in one {@code mount}.
 *
 * <p>A snapshot is keyed by everything that determines it: the bytes of every file of the rendered
 * folder, the playbook and arguments, the environment, the inventory (with each root as a
 * placeholder), the files put into the roots first, and the template root. Two inputs that differ
 * in any of these never share one.
 *
 * <pre>{@code
 * Converged site =
 *     Converged.playbook(renderedAnsibleDir, "site.yml")
 *         .hosts("testhost")
 *         .inventory(roots -> RealTools.chrootInventory(roots.get("testhost"), "pool_h100"))
 *         .env(RealTools.YAML_INVENTORY)
 *         .args("--skip-tags", "hardware,network")
 *         .converge();
 * site.first("testhost").get("changed");          // the converging run's recap
 * Path root = site.root("testhost", tmp.resolve("root"));   // a writable root on the result
 * Path ran = site.render(tmp.resolve("ran"));      // the folder as the runs left it (reports/)
 * }</pre>
 */
public final class Converged {
  private static final Map<String, Object> CACHE = new ConcurrentHashMap<>();
  private static final Duration RUN_TIMEOUT = Duration.ofMinutes(15);

  private final String key;
  private final Map<String, Path> layers;
  private final Path render;
  private final RealTools.Result first;
  private final RealTools.Result second;
  private final List<String> hosts;

  private Converged(
      String key,
      List<String> hosts,
      Map<String, Path> layers,
      Path render,
      RealTools.Result first,
      RealTools.Result second) {
    this.key = key;
    this.hosts = List.copyOf(hosts);
    this.layers = Map.copyOf(layers);
    this.render = render;
    this.first = first;
    this.second = second;
  }

  /** Starts describing a run of {@code playbook} from the rendered folder {@code dir}. */
  public static Builder playbook(Path dir, String playbook) {
    return new Builder(dir, playbook);
  }

  /** The digest the snapshot is keyed by. */
  public String key() {
    return key;
  }

  /** The converging (first) run. */
  public RealTools.Result first() {
    return first;
  }

  /** The second run, which changed nothing on any host (checked when converging). */
  public RealTools.Result second() {
    return second;
  }

  /** The first run's PLAY RECAP counts of {@code host}. */
  public Map<String, Integer> first(String host) {
    return RealTools.recap(first.output(), host);
  }

  /** The second run's PLAY RECAP counts of {@code host}. */
  public Map<String, Integer> second(String host) {
    return RealTools.recap(second.output(), host);
  }

  /**
   * Mounts a writable root at {@code dir} holding {@code host}'s converged state; the frozen layer
   * stays as it is. Unmounted after the test, as every {@link TestRoot}.
   */
  public Path root(String host, Path dir) throws IOException, InterruptedException {
    Path layer = layers.get(host);
    if (layer == null) {
      fail("no host " + host + " in this snapshot: " + hosts);
    }
    return TestRoot.mount(List.of(layer), dir);
  }

  /** Copies the rendered folder as the two runs left it (reports/, .cache/) to {@code dest}. */
  public Path render(Path dest) throws IOException, InterruptedException {
    Files.createDirectories(dest.getParent());
    RealTools.run(
            Path.of("/"),
            Duration.ofMinutes(2),
            Map.of(),
            "cp",
            "-a",
            "--no-target-directory",
            render.toString(),
            dest.toString())
        .assertOk();
    return dest;
  }

  /** What a snapshot is made from; {@link #converge} runs it, or returns the one already made. */
  public static final class Builder {
    private final Path dir;
    private final String playbook;
    private final List<String> hosts = new ArrayList<>();
    private final List<String> args = new ArrayList<>();
    private final Map<String, String> env = new TreeMap<>();
    private final SortedMap<String, String> files = new TreeMap<>();
    private final SortedMap<String, String> directories = new TreeMap<>();
    private final SortedSet<String> executables = new TreeSet<>();
    private Function<Map<String, Path>, String> inventory;

    private Builder(Path dir, String playbook) {
      this.dir = dir;
      this.playbook = playbook;
    }

    /** The chroot hosts, each on a root of its own. */
    public Builder hosts(String... names) {
      hosts.addAll(List.of(names));
      return this;
    }

    /**
     * The inventory the run reads last ({@code -i FILE} after {@link #args}), made from the roots
     * by host name.
     */
    public Builder inventory(Function<Map<String, Path>, String> text) {
      this.inventory = text;
      return this;
    }

    /** Environment variables of both runs. */
    public Builder env(Map<String, String> vars) {
      env.putAll(vars);
      return this;
    }

    /** Arguments of ansible-playbook before the inventory and the playbook. */
    public Builder args(String... more) {
      args.addAll(List.of(more));
      return this;
    }

    /** A file put into {@code host}'s root before the first run ({@code path} relative). */
    public Builder file(String host, String path, String text) {
      files.put(host + "\0" + path, text);
      return this;
    }

    /** As {@link #file}, mode 0755: a stand-in for a command the plays run. */
    public Builder executable(String host, String path, String text) {
      executables.add(host + "\0" + path);
      return file(host, path, text);
    }

    /** A folder made in {@code host}'s root before the first run ({@code path} relative). */
    public Builder directory(String host, String path) {
      directories.put(host + "\0" + path, path);
      return this;
    }

    /**
     * Runs the playbook twice on fresh roots (failing the test unless both runs exit 0 and the
     * second changes nothing on any host) and freezes the result; a later call with the same input
     * returns the same snapshot without running anything.
     */
    public Converged converge() throws IOException, InterruptedException {
      if (hosts.isEmpty() || inventory == null) {
        fail("a converged snapshot needs hosts and an inventory");
      }
      String key = key();
      Object done = CACHE.get(key);
      if (done == null) {
        synchronized (CACHE) {
          done = CACHE.get(key);
          if (done == null) {
            try {
              done = make(key);
            } catch (AssertionError e) {
              done = e;
            }
            CACHE.put(key, done);
          }
        }
      }
      if (done instanceof AssertionError e) {
        throw new AssertionError("converging " + playbook + " failed (snapshot " + key + ")", e);
      }
      return (Converged) done;
    }

    private Converged make(String key) throws IOException, InterruptedException {
      Path snap = TestRoot.LAYERS.resolve("converged-" + key.substring(0, 16));
      Path render = snap.resolve("render");
      Files.createDirectories(snap);
      RealTools.run(
              Path.of("/"),
              Duration.ofMinutes(2),
              Map.of(),
              "cp",
              "-a",
              "--no-target-directory",
              dir.toString(),
              render.toString())
          .assertOk();
      Map<String, Path> roots = new LinkedHashMap<>();
      for (String host : hosts) {
        roots.put(host, TestRoot.fresh(snap.resolve("mnt-" + host)));
      }
      for (String d : directories.keySet()) {
        String[] hostPath = d.split("\0", 2);
        Files.createDirectories(roots.get(hostPath[0]).resolve(hostPath[1]));
      }
      for (Map.Entry<String, String> f : files.entrySet()) {
        String[] hostPath = f.getKey().split("\0", 2);
        Path target = roots.get(hostPath[0]).resolve(hostPath[1]);
        Files.createDirectories(target.getParent());
        Files.writeString(target, f.getValue(), StandardCharsets.UTF_8);
        if (executables.contains(f.getKey())) {
          Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
      }
      Path inv = Files.writeString(snap.resolve("inventory.yml"), inventory.apply(roots));
      List<String> cmd = new ArrayList<>(List.of("ansible-playbook"));
      cmd.addAll(args);
      cmd.addAll(List.of("-i", inv.toString(), playbook));
      Map<Path, String> machine = machine();
      RealTools.Result first = timed(render, cmd, "converge");
      RealTools.Result second = timed(render, cmd, "idempotence");
      if (!machine.equals(machine())) {
        fail(
            "the runs of "
                + playbook
                + " changed the test machine itself: before "
                + machine
                + ", after "
                + machine());
      }
      for (String host : hosts) {
        int changed = RealTools.recap(second.output(), host).get("changed");
        if (changed != 0) {
          fail(host + " changed again on the second run of " + playbook + ":\n" + second.output());
        }
      }
      Map<String, Path> layers = new LinkedHashMap<>();
      for (Map.Entry<String, Path> r : roots.entrySet()) {
        layers.put(r.getKey(), TestRoot.freeze(r.getValue()));
      }
      return new Converged(key, hosts, layers, render, first, second);
    }

    private RealTools.Result timed(Path render, List<String> cmd, String which)
        throws IOException, InterruptedException {
      long start = System.nanoTime();
      RealTools.Result r = RealTools.run(render, RUN_TIMEOUT, env, cmd);
      System.out.printf(
          "chroot %s %s (%s): %d ms%n",
          which, playbook, String.join(",", hosts), (System.nanoTime() - start) / 1_000_000);
      if (r.exitCode() != 0) {
        fail(String.join(" ", cmd) + " exited " + r.exitCode() + ":\n" + r.output());
      }
      return r;
    }

    /**
     * What a chroot run must leave alone on the machine running it: the kernel settings and files
     * the roles write (a chroot shares the host's kernel; a missing guard would write the host's).
     */
    private static final List<Path> MACHINE =
        Stream.of(
                "/proc/sys/vm/max_map_count",
                "/proc/sys/vm/swappiness",
                "/proc/sys/kernel/numa_balancing",
                "/proc/sys/net/core/rmem_max",
                "/etc/nccl.conf",
                "/etc/profile.d/nccl.sh",
                "/etc/fstab",
                "/etc/modprobe.d/blacklist-nouveau.conf",
                "/etc/sysctl.d/90-gpugen.conf",
                "/etc/modules-load.d/nvidia-peermem.conf")
            .map(Path::of)
            .toList();

    private static Map<Path, String> machine() throws IOException {
      Map<Path, String> out = new LinkedHashMap<>();
      for (Path p : MACHINE) {
        out.put(p, Files.exists(p) ? Files.readString(p) : "(absent)");
      }
      return out;
    }

    /** SHA-256 over every input of the runs, in a fixed order. */
    private String key() throws IOException, InterruptedException {
      MessageDigest d;
      try {
        d = MessageDigest.getInstance("SHA-256");
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException(e);
      }
      Map<String, Path> placeholders = new LinkedHashMap<>();
      hosts.forEach(h -> placeholders.put(h, Path.of("/gpugen-test-root", h)));
      List<String> parts = new ArrayList<>();
      parts.add("template " + marker());
      parts.add("playbook " + playbook);
      parts.add("args " + args);
      parts.add("env " + env);
      parts.add("hosts " + hosts);
      parts.add("inventory " + inventory.apply(placeholders));
      directories.keySet().forEach(k -> parts.add("directory " + k));
      files.forEach((k, v) -> parts.add("file " + k + "\0" + v));
      executables.forEach(k -> parts.add("executable " + k));
      for (String p : parts) {
        d.update(p.getBytes(StandardCharsets.UTF_8));
        d.update((byte) 0);
      }
      try (Stream<Path> walk = Files.walk(dir)) {
        for (Path f : walk.filter(Files::isRegularFile).sorted().toList()) {
          d.update(dir.relativize(f).toString().getBytes(StandardCharsets.UTF_8));
          d.update((byte) 0);
          d.update((Files.isExecutable(f) ? "x" : "-").getBytes(StandardCharsets.UTF_8));
          d.update(Files.readAllBytes(f));
          d.update((byte) 0);
        }
      }
      return HexFormat.of().formatHex(d.digest());
    }

    /** The template root's marker: its suite and package list. */
    private static String marker() throws IOException, InterruptedException {
      return Files.readString(RealTools.testRootTemplate().resolve(".gpugen-test-root"));
    }
  }
}
