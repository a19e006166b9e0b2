package dev.gpugen.cli;

import dev.gpugen.failure.EnvironmentFailure;
import dev.gpugen.failure.Failure;
import dev.gpugen.inventory.Ec2InstanceSource;
import dev.gpugen.inventory.InstanceSource;
import dev.gpugen.inventory.InventoryConfig;
import dev.gpugen.inventory.InventoryConfigReader;
import dev.gpugen.inventory.InventoryJson;
import dev.gpugen.inventory.InventoryService;
import dev.gpugen.spec.Printable;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.function.Supplier;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code gpugen inventory --list | --host NAME}: the Ansible dynamic inventory of the cluster's EC2
 * instances. Ansible's {@code script} plugin runs it through the rendered {@code gpugen-inventory}
 * script.
 *
 * <p>stdout carries the JSON and nothing else; a failure prints one line on stderr, nothing on
 * stdout, and exits non-zero, so Ansible never sees an empty inventory it could mistake for an
 * empty cluster. A successful run writes to stderr only for a warning worth an operator's eye
 * (Ansible shows such output as an error line): a dropped hostile tag, or no instances at all.
 */
@Command(
    name = "inventory",
    sortOptions = false,
    usageHelpAutoWidth = true,
    description = {
      "Print the Ansible inventory of the cluster's EC2 instances (dynamic-inventory script"
          + " protocol).",
      "Settings come from gpugen-inventory.json (--config) and GPUGEN_* variables; AWS"
          + " credentials and endpoints from the SDK's usual chain (AWS_PROFILE, AWS_REGION, ...)."
    },
    footer = {
      "",
      "Exit codes: 0 ok, 1 invalid settings, 2 usage, 3 AWS/EC2/I/O failure, 4 internal error."
    })
public final class InventoryCommand implements Callable<Integer> {
  private static final String PREFIX = "gpugen inventory: ";

  /**
   * What the command reads from outside: injected so tests need no real AWS or environment.
   *
   * @param stdout the process's standard output as bytes, if the document may go there directly
   *     instead of through the command's text writer (a 16,000-host list is 16 MB: decoding it to
   *     text only to encode it again costs more than the rest of a cached run)
   */
  public record Context(
      Map<String, String> env,
      Clock clock,
      InstanceSource.Factory sources,
      Supplier<Optional<String>> profileRegion,
      Optional<OutputStream> stdout) {
    public Context {
      env = Map.copyOf(env);
      Objects.requireNonNull(clock, "clock");
      Objects.requireNonNull(sources, "sources");
      Objects.requireNonNull(profileRegion, "profileRegion");
      Objects.requireNonNull(stdout, "stdout");
    }

    /** A context that prints through the command's writer. */
    public Context(
        Map<String, String> env,
        Clock clock,
        InstanceSource.Factory sources,
        Supplier<Optional<String>> profileRegion) {
      this(env, clock, sources, profileRegion, Optional.empty());
    }

    /** The real process environment, clock, SDK credential chain and profile region. */
    public static Context system() {
      // Lambdas, not method references: a cached run then never loads an AWS SDK class.
      return new Context(
          System.getenv(),
          Clock.systemUTC(),
          config -> Ec2InstanceSource.withDefaultCredentials(config),
          () -> Ec2InstanceSource.profileRegion(),
          Optional.of(new FileOutputStream(FileDescriptor.out)));
    }
  }

  /** Exactly one of {@code --list} and {@code --host}. */
  static final class Mode {
    @Option(names = "--list", required = true, description = "Print every group and host.")
    boolean list;

    @Option(
        names = "--host",
        required = true,
        paramLabel = "NAME",
        description = "Print the variables of host NAME ({} if there is no such host).")
    String host;
  }

  @Spec CommandSpec spec;

  @ArgGroup(exclusive = true, multiplicity = "1")
  Mode mode;

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description =
          "The settings file (default: $GPUGEN_INVENTORY_CONFIG, else ./gpugen-inventory.json).")
  Path config;

  @Option(names = "--refresh-cache", description = "Ask EC2 even if the cache is fresh.")
  boolean refreshCache;

  @Option(
      names = {"-v", "--verbose"},
      description = "Report progress and, on failure, the stack trace, on stderr.")
  boolean verbose;

  @Option(
      names = {"-h", "--help"},
      usageHelp = true,
      description = "Show this help and exit.")
  boolean help;

  private final Context context;

  public InventoryCommand() {
    this(Context.system());
  }

  public InventoryCommand(Context context) {
    this.context = Objects.requireNonNull(context, "context");
  }

  @Override
  public Integer call() {
    return run(
        context,
        Optional.ofNullable(config),
        Optional.ofNullable(mode.host),
        refreshCache,
        verbose,
        spec.commandLine().getOut(),
        spec.commandLine().getErr());
  }

  /**
   * The two command lines Ansible's script plugin runs through the rendered wrapper, {@code
   * inventory --config FILE --list} and {@code ... --host NAME}, without picocli: building its
   * model by reflection is most of a cached run's start-up (bench/inventory.sh). Any other command
   * line is not matched and goes through picocli as usual.
   *
   * @return the exit code, or empty if {@code args} is not one of the two forms
   */
  static Optional<Integer> runAsAnsible(String[] args, PrintWriter out, PrintWriter err) {
    if ((args.length != 4 && args.length != 5)
        || !args[0].equals("inventory")
        || !args[1].equals("--config")
        || args[2].startsWith("-")
        || !(args.length == 4 ? args[3].equals("--list") : args[3].equals("--host"))
        || (args.length == 5 && args[4].startsWith("-"))) {
      return Optional.empty();
    }
    Optional<String> host = args.length == 5 ? Optional.of(args[4]) : Optional.empty();
    return Optional.of(
        run(Context.system(), Optional.of(Path.of(args[2])), host, false, false, out, err));
  }

  /** One run: the settings, the listing (cache or EC2), the document on stdout. */
  static int run(
      Context context,
      Optional<Path> config,
      Optional<String> host,
      boolean refreshCache,
      boolean verbose,
      PrintWriter out,
      PrintWriter err) {
    // Settings, GPUGEN_* variables, EC2 fields and error texts are outside text: escaped before
    // they reach the terminal Ansible prints this on.
    Consumer<String> progress =
        verbose ? line -> err.println(PREFIX + Printable.text(line)) : line -> {};
    try {
      InventoryConfig settings = new InventoryConfigReader(context.env()).read(config);
      settings = InventoryService.resolveRegions(settings, context.env(), context.profileRegion());
      InventoryService.Output output =
          new InventoryService(
                  settings, context.env(), context.sources(), context.clock(), progress)
              .list(refreshCache);
      byte[] document =
          host.isEmpty() ? output.list() : InventoryJson.hostFromList(output.list(), host.get());
      for (String warning : output.warnings()) {
        err.println(PREFIX + "warning: " + Printable.text(warning));
      }
      err.flush();
      if (context.stdout().isPresent()) {
        out.flush();
        try {
          context.stdout().get().write(document);
          context.stdout().get().flush();
        } catch (IOException e) {
          throw new EnvironmentFailure(
              "cannot write the inventory to standard output: " + e.getMessage(), e);
        }
      } else {
        out.write(new String(document, StandardCharsets.UTF_8));
        out.flush();
      }
      return ExitCodes.OK;
    } catch (Failure e) {
      err.println(PREFIX + "error: " + Printable.text(e.getMessage()));
      if (verbose) {
        e.printStackTrace(err);
      }
      err.flush();
      return ExitCodes.of(e);
    } catch (IOException | RuntimeException e) {
      err.println(
          PREFIX
              + "internal error: "
              + e.getClass().getSimpleName()
              + (verbose ? "" : "; run with --verbose for details")
              + "; please report it");
      if (verbose) {
        e.printStackTrace(err);
      }
      err.flush();
      return ExitCodes.INTERNAL;
    }
  }
}
