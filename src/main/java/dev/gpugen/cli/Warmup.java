package dev.gpugen.cli;

import dev.gpugen.compat.CompatTable;
import dev.gpugen.render.Templates;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * One-time set-up a run will need, begun on a second core as the run starts. Most of a short run is
 * set-up (docs/speed.md), and the main thread spends its first part in picocli and the spec's YAML,
 * which need neither the compatibility table's rows nor the parsed templates. Every result is the
 * one the main thread would have made itself; a failure here is dropped and met again, and
 * reported, where the main thread asks for the result.
 */
final class Warmup {
  private Warmup() {}

  /** The commands that read a spec against the compatibility table. */
  private static final Set<String> CHECKING =
      Set.of("validate", "render", "plan", "drift", "up", "down");

  /** The commands that render: they also get the built-in templates, parsed. */
  private static final Set<String> RENDERING = Set.of("render", "up");

  /** The built-in templates as soon as they are loaded, and once every one is parsed. */
  private record BuiltIn(CompletableFuture<Templates> loaded, CompletableFuture<Templates> parsed) {
    void fail(Throwable e) {
      loaded.completeExceptionally(e);
      parsed.completeExceptionally(e);
    }
  }

  /** Once per process: the templates are immutable once parsed. */
  private static BuiltIn builtIn;

  /** Begins the set-up the command in {@code args} will need; nothing for any other command. */
  static void start(String[] args) {
    String command = args.length > 0 ? args[0] : "";
    // On one core the thread would only take turns with the main one.
    if (!CHECKING.contains(command) || Runtime.getRuntime().availableProcessors() < 2) {
      return;
    }
    BuiltIn templates = RENDERING.contains(command) ? claim() : null;
    Thread t =
        new Thread(
            () -> {
              // Anything thrown here is the main thread's to meet and report: caught whole, so
              // that nothing prints a stack trace and the templates' futures are always completed.
              try {
                // The holder's class initialiser: a load() on the main thread waits for it.
                CompatTable.load();
              } catch (Throwable e) {
                // load() on the main thread reports the same failure.
              }
              if (templates != null) {
                try {
                  Templates loaded = Templates.load(Optional.empty());
                  templates.loaded().complete(loaded);
                  templates.parsed().complete(loaded.parsed());
                } catch (Throwable e) {
                  templates.fail(e);
                }
              }
            },
            "gpugen-warmup");
    t.setDaemon(true);
    try {
      t.start();
    } catch (OutOfMemoryError e) {
      // No thread to be had: the main thread does it all, as on one core.
      if (templates != null) {
        templates.fail(e);
      }
    }
  }

  /** The futures this run's warm-up completes; null when an earlier run's has them already. */
  private static synchronized BuiltIn claim() {
    if (builtIn != null) {
      return null;
    }
    builtIn = new BuiltIn(new CompletableFuture<>(), new CompletableFuture<>());
    return builtIn;
  }

  /**
   * The built-in templates, parsed: the warm-up's when it began them, else loaded here. When the
   * warm-up has not parsed them all yet, this thread parses the rest alongside it rather than wait.
   */
  static Templates builtInTemplates() {
    BuiltIn b = current();
    if (b != null) {
      try {
        b.loaded().get().parsed();
        return b.parsed().get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (ExecutionException e) {
        // Met again below, and reported from this thread like any other failure.
      }
    }
    return Templates.load(Optional.empty());
  }

  private static synchronized BuiltIn current() {
    return builtIn;
  }
}
