package dev.gpugen.cli;

import dev.gpugen.compat.CompatTable;
import dev.gpugen.render.Templates;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * One-time set-up a run will need, begun on a second core as the run starts. Most of a short run is
 * set-up (docs/speed.md), and the main thread spends its first part in picocli and the spec, which
 * need neither the compatibility table's rows nor the parsed templates. Every result is the one the
 * main thread would have made itself; a failure here is dropped and met again, and reported, where
 * the main thread asks for the result.
 */
final class Warmup {
  private Warmup() {}

  /** The commands that read a spec against the compatibility table. */
  private static final Set<String> CHECKING =
      Set.of("validate", "render", "plan", "drift", "up", "down");

  /** The commands that render: they also get the built-in templates, parsed. */
  private static final Set<String> RENDERING = Set.of("render", "up");

  /** The built-in templates, once per process: they are immutable once parsed. */
  private static CompletableFuture<Templates> builtIn;

  /** Begins the set-up the command in {@code args} will need; nothing for any other command. */
  static void start(String[] args) {
    String command = args.length > 0 ? args[0] : "";
    // On one core the thread would only take turns with the main one.
    if (!CHECKING.contains(command) || Runtime.getRuntime().availableProcessors() < 2) {
      return;
    }
    CompletableFuture<Templates> parse = RENDERING.contains(command) ? claim() : null;
    Thread t =
        new Thread(
            () -> {
              // Anything thrown here is the main thread's to meet and report: caught whole, so
              // that nothing prints a stack trace and the templates' future is always completed.
              try {
                // The holder's class initialiser: a load() on the main thread waits for it.
                CompatTable.load();
              } catch (Throwable e) {
                // load() on the main thread reports the same failure.
              }
              if (parse != null) {
                try {
                  parse.complete(Templates.load(Optional.empty()).parsed());
                } catch (Throwable e) {
                  parse.completeExceptionally(e);
                }
              }
            },
            "gpugen-warmup");
    t.setDaemon(true);
    try {
      t.start();
    } catch (OutOfMemoryError e) {
      // No thread to be had: the main thread does it all, as on one core.
      if (parse != null) {
        parse.completeExceptionally(e);
      }
    }
  }

  /** The future this run's warm-up completes; null when an earlier run's has them already. */
  private static synchronized CompletableFuture<Templates> claim() {
    if (builtIn != null) {
      return null;
    }
    builtIn = new CompletableFuture<>();
    return builtIn;
  }

  /** The built-in templates, parsed: the warm-up's when it began them, else loaded here. */
  static Templates builtInTemplates() {
    CompletableFuture<Templates> f = current();
    if (f != null) {
      try {
        return f.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (ExecutionException e) {
        // Met again below, and reported from this thread like any other failure.
      }
    }
    return Templates.load(Optional.empty());
  }

  private static synchronized CompletableFuture<Templates> current() {
    return builtIn;
  }
}
