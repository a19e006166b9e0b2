package dev.gpugen.inventory;

import dev.gpugen.failure.EnvironmentFailure;
import dev.gpugen.failure.Failure;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * One inventory run: resolve the regions, serve the cache or ask EC2 (regions in parallel), build,
 * and keep the result for the next run. All or nothing: a region that fails fails the run.
 */
public final class InventoryService {
  private static final int MAX_PARALLEL_REGIONS = 4;

  /** The {@code --list} document, the warnings to print with it, and where it came from. */
  public record Output(byte[] list, List<String> warnings, boolean fromCache) {
    public Output {
      warnings = List.copyOf(warnings);
    }
  }

  private final InventoryConfig config;
  private final Map<String, String> env;
  private final InstanceSource.Factory sources;
  private final Clock clock;
  private final Consumer<String> verbose;

  /**
   * @param config the settings, regions resolved ({@link #resolveRegions})
   * @param env the process environment (part of the cache key)
   * @param sources creates the EC2 source, only on a cache miss
   * @param clock the time source for the cache TTL
   * @param verbose receives progress lines (for {@code --verbose})
   */
  public InventoryService(
      InventoryConfig config,
      Map<String, String> env,
      InstanceSource.Factory sources,
      Clock clock,
      Consumer<String> verbose) {
    this.config = config;
    this.env = Map.copyOf(env);
    this.sources = sources;
    this.clock = clock;
    this.verbose = verbose;
  }

  /**
   * The regions to query: the configured ones, else {@code AWS_REGION} / {@code
   * AWS_DEFAULT_REGION}, else the profile's. The instance metadata service is deliberately not
   * asked: off EC2 that probe costs seconds before failing.
   */
  public static InventoryConfig resolveRegions(
      InventoryConfig config, Map<String, String> env, Supplier<Optional<String>> profileRegion)
      throws Failure {
    if (!config.regions().isEmpty()) {
      return config;
    }
    Optional<String> region =
        Optional.ofNullable(env.get("AWS_REGION"))
            .or(() -> Optional.ofNullable(env.get("AWS_DEFAULT_REGION")))
            .filter(r -> !r.isBlank())
            .or(profileRegion);
    if (region.isEmpty()) {
      throw new EnvironmentFailure(
          "no AWS region: set \"regions\" in gpugen-inventory.json, or GPUGEN_REGIONS or AWS_REGION");
    }
    return config.withRegions(List.of(region.get().trim()));
  }

  /**
   * The {@code --list} document: from the cache when allowed and fresh, else from EC2. {@code
   * GPUGEN_REFRESH_CACHE=1} in the environment refreshes like {@code refreshCache}, since Ansible
   * passes the script no option but {@code --list}.
   */
  public Output list(boolean refreshCache) throws Failure {
    List<String> warnings = new ArrayList<>();
    Optional<InventoryCache> cache = Optional.empty();
    // The profile files are read once: for whether they can key the cache, and for the key.
    Optional<InventoryCache.Profiles> profiles =
        config.cacheTtlSeconds() > 0
            ? Optional.of(InventoryCache.Profiles.read(env))
            : Optional.empty();
    Optional<String> uncacheable = profiles.flatMap(InventoryCache.Profiles::unreadable);
    uncacheable.ifPresent(why -> verbose.accept("cache off: " + why));
    if (profiles.isPresent() && uncacheable.isEmpty()) {
      InventoryCache c =
          new InventoryCache(
              config.cacheDir(), InventoryCache.key(config, env, profiles.get()), clock);
      Optional<String> unsafe = c.unsafeFolder();
      if (unsafe.isPresent()) {
        // Said on every run: another user may be planting inventories for this one to run.
        warnings.add(
            "not using the cache: "
                + unsafe.get()
                + "; set GPUGEN_CACHE_DIR (or \"cacheDir\") to a folder only you can write");
      } else {
        cache = Optional.of(c);
      }
    }
    boolean refresh = refreshCache || "1".equals(env.get("GPUGEN_REFRESH_CACHE"));
    verbose.accept(
        cache
            .map(
                c ->
                    "cache "
                        + c.file()
                        + ", ttl "
                        + config.cacheTtlSeconds()
                        + " s (\"cacheTtlSeconds\"; default "
                        + InventoryConfigReader.DEFAULT_CACHE_TTL_SECONDS
                        + ")"
                        + (refresh ? ", refreshing" : ""))
            .orElse("cache off"));
    if (cache.isPresent() && !refresh) {
      Optional<InventoryCache.Entry> hit = cache.get().read(config.cacheTtlSeconds(), verbose);
      if (hit.isPresent()) {
        verbose.accept("served from cache " + cache.get().file());
        List<String> all = new ArrayList<>(warnings);
        all.addAll(hit.get().warnings());
        return new Output(hit.get().body(), all, true);
      }
    }

    long start = System.nanoTime();
    List<HostFacts> instances = withinDeadline();
    verbose.accept(
        instances.size()
            + " instances from EC2 in "
            + (System.nanoTime() - start) / 1_000_000
            + " ms ("
            + String.join(", ", config.regions())
            + ")");
    long built0 = System.nanoTime();
    InventoryBuilder.Result built = InventoryBuilder.build(config, instances);
    long built1 = System.nanoTime();
    if (built.foreignDropped() > 0) {
      verbose.accept(built.foreignDropped() + " instances dropped: not this cluster's or state");
    }
    warnings.addAll(built.warnings());
    boolean empty = built.inventory().hostvars().isEmpty();
    if (empty) {
      warnings.add(
          "no "
              + String.join("/", config.states())
              + " instances of cluster "
              + config.cluster()
              + config.environment().map(e -> " (environment " + e + ")").orElse("")
              + " in "
              + String.join(", ", config.regions())
              + "; check \"cluster\", \"environment\" and \"regions\"");
    }
    byte[] list = InventoryJson.list(built.inventory());
    long written = System.nanoTime();
    verbose.accept(
        "inventory built in "
            + (built1 - built0) / 1_000_000
            + " ms, "
            + list.length
            + " bytes of JSON written in "
            + (written - built1) / 1_000_000
            + " ms");
    if (empty) {
      // An empty answer is often a wrong setting or a transient state; never serve it again.
      verbose.accept("not caching an empty inventory");
    } else if (cache.isPresent()) {
      try {
        long cached = System.nanoTime();
        cache.get().write(list, built.warnings());
        verbose.accept("cache written in " + (System.nanoTime() - cached) / 1_000_000 + " ms");
      } catch (IOException | RuntimeException e) {
        // A cache that cannot be written costs speed, not correctness: never fail the run for it,
        // and stay quiet, since Ansible shows any stderr of a successful run as an error.
        verbose.accept("cannot write cache " + cache.get().file() + ": " + e);
      }
    }
    return new Output(list, warnings, false);
  }

  /**
   * Every region's instances, or a failure once {@code deadlineSeconds} have passed: whatever the
   * endpoint does (an endless NextToken chain, a trickling body), the run ends.
   */
  private List<HostFacts> withinDeadline() throws Failure {
    ExecutorService runner =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "gpugen-inventory");
              t.setDaemon(true);
              return t;
            });
    try {
      Future<List<HostFacts>> all = runner.submit(this::describeAll);
      return all.get(config.deadline().toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new EnvironmentFailure(
          "listing the instances in "
              + String.join(", ", config.regions())
              + " took longer than "
              + config.deadline().toSeconds()
              + " s (\"deadlineSeconds\"); the EC2 endpoint is too slow or does not stop"
              + " paginating",
          e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Failure failure) {
        throw failure;
      }
      if (e.getCause() instanceof RuntimeException failure) {
        throw failure;
      }
      if (e.getCause() instanceof OutOfMemoryError) {
        throw new EnvironmentFailure(
            "ran out of memory while reading EC2's answers in "
                + String.join(", ", config.regions())
                + "; raise the heap with GPUGEN_JAVA_OPTS=-Xmx...",
            e);
      }
      throw new IllegalStateException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new EnvironmentFailure("interrupted while asking EC2", e);
    } finally {
      runner.shutdownNow();
    }
  }

  private List<HostFacts> describeAll() throws Failure {
    InstanceSource source = sources.create(config);
    List<String> regions = config.regions();
    if (regions.size() == 1) {
      return source.describe(regions.get(0));
    }
    ExecutorService pool =
        Executors.newFixedThreadPool(
            Math.min(regions.size(), MAX_PARALLEL_REGIONS),
            r -> {
              Thread t = new Thread(r, "gpugen-ec2");
              t.setDaemon(true);
              return t;
            });
    try {
      List<Future<List<HostFacts>>> futures = new ArrayList<>();
      for (String region : regions) {
        futures.add(pool.submit(() -> source.describe(region)));
      }
      List<HostFacts> all = new ArrayList<>();
      for (Future<List<HostFacts>> future : futures) {
        all.addAll(future.get());
      }
      return all;
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Failure failure) {
        throw failure;
      }
      throw new IllegalStateException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new EnvironmentFailure("interrupted while asking EC2", e);
    } finally {
      pool.shutdownNow();
    }
  }
}
