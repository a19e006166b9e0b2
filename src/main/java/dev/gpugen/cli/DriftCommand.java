package dev.gpugen.cli;

import dev.gpugen.Gpugen;
import dev.gpugen.drift.Drift;
import dev.gpugen.drift.Finding;
import dev.gpugen.failure.EnvironmentFailure;
import dev.gpugen.failure.Failure;
import dev.gpugen.failure.InvalidInput;
import dev.gpugen.inventory.Ec2InstanceSource;
import dev.gpugen.inventory.HostFacts;
import dev.gpugen.inventory.InstanceSource;
import dev.gpugen.inventory.InventoryConfig;
import dev.gpugen.inventory.InventoryConfigReader;
import dev.gpugen.json.Json;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Printable;
import dev.gpugen.spec.Provider;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code gpugen drift SPEC}: what runs against what the spec says. Cloud level from EC2 (the
 * inventory's tags, code and settings), node level from the nodes' baseline facts ({@code --facts
 * DIR}). Exit 0 in sync, 1 drift found, 3 could not look.
 */
@Command(
    modelTransformer = SpecOptions.Added.class,
    name = "drift",
    sortOptions = false,
    mixinStandardHelpOptions = true,
    description = {
      "Compare the cluster with the spec: EC2 instances per pool (count, type, AMI, placement"
          + " group, spot/on-demand) and, with --facts, each node's driver, CUDA, container"
          + " toolkit and NCCL settings.",
      "EC2 is asked as the inventory asks it: the gpugen tags, the spec's region, AWS credentials"
          + " from the SDK's chain, GPUGEN_EC2_ENDPOINT, GPUGEN_API_CALL_TIMEOUT_SECONDS,"
          + " GPUGEN_MAX_ATTEMPTS."
    },
    footer = {"", "Exit codes: 0 in sync, 1 drift found, 2 usage, 3 could not look, 4 internal."})
public final class DriftCommand implements Callable<Integer>, SpecOptions.Holder {
  enum Format {
    text,
    json
  }

  /** What the command reads from outside: injected so tests need no real AWS. */
  public record Context(Map<String, String> env, InstanceSource.Factory sources) {
    public Context {
      env = Map.copyOf(env);
      Objects.requireNonNull(sources, "sources");
    }

    static Context system() {
      return new Context(
          System.getenv(), config -> Ec2InstanceSource.withDefaultCredentials(config));
    }
  }

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(index = "0", paramLabel = "SPEC", description = "The cluster spec.")
  Path file;

  @Option(names = "--format", description = "text (default) or json.")
  Format format = Format.text;

  @Option(
      names = "--facts",
      paramLabel = "DIR",
      description =
          "Node level: <host>.json files as written by `ansible gpu_nodes -m"
              + " ansible.builtin.setup -a filter=ansible_local --tree DIR`.")
  Path facts;

  @Option(names = "--no-cloud", description = "Do not ask EC2; only the node level (--facts).")
  boolean noCloud;

  final SpecOptions options = new SpecOptions();

  @Override
  public SpecOptions options() {
    return options;
  }

  private final Context context;

  public DriftCommand() {
    this(Context.system());
  }

  public DriftCommand(Context context) {
    this.context = Objects.requireNonNull(context, "context");
  }

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    Gpugen.Checked checked = options.check(Knowledge.gpugen(), file);
    if (checked.spec().isEmpty()) {
      DiagnosticPrinter.text(spec.commandLine().getErr(), checked);
      throw new EnvironmentFailure("drift: " + file + " cannot be read as a spec");
    }
    ClusterSpec cluster = checked.spec().get();
    List<Finding> findings = new ArrayList<>();
    List<String> looked = new ArrayList<>();
    boolean cloud = !noCloud && cluster.cloud().provider() == Provider.AWS;
    if (cloud) {
      String region = cluster.cloud().region().orElseThrow();
      List<HostFacts> hosts;
      try {
        hosts = context.sources().create(settings(cluster, region)).describe(region);
      } catch (Failure e) {
        throw e.prefixed("drift: cannot ask EC2: ");
      }
      // The group names the cluster's render kept (its default folder's manifest): an upgraded
      // cluster's spread group keeps the name it was created with.
      ClusterPlan plan = checked.plan().orElseThrow();
      findings.addAll(
          Drift.cloud(Impact.placementKept(Path.of(plan.spec().outputFolder()), plan), hosts));
      looked.add("cloud: " + hosts.size() + " instances in " + region);
    }
    if (facts != null) {
      if (!Files.isDirectory(facts)) {
        throw new EnvironmentFailure("drift: --facts " + facts + ": no such folder");
      }
      try {
        findings.addAll(Drift.nodes(checked.plan().orElseThrow(), facts));
      } catch (EnvironmentFailure e) {
        throw new EnvironmentFailure("drift: " + Printable.text(e.getMessage()), e);
      } catch (IOException e) {
        throw new EnvironmentFailure(
            "drift: cannot read " + Printable.text(facts + ": " + e.getMessage()), e);
      }
      looked.add("nodes: " + facts);
    }
    if (looked.isEmpty()) {
      throw InvalidInput.usage(
          "drift: nothing to compare: the cluster is not on AWS (or --no-cloud) and no --facts");
    }
    String name =
        cluster.metadata().name() + cluster.metadata().environment().map(e -> "/" + e).orElse("");
    if (format == Format.json) {
      json(out, name, looked, findings);
    } else {
      text(out, name, looked, findings);
    }
    out.flush();
    return findings.isEmpty() ? ExitCodes.OK : ExitCodes.INVALID;
  }

  /** The inventory's settings for this spec: its cluster, environment and region. */
  private InventoryConfig settings(ClusterSpec cluster, String region) {
    Map<String, String> env = new HashMap<>(context.env());
    env.remove(InventoryConfigReader.CONFIG_ENV);
    env.put("GPUGEN_CLUSTER", cluster.metadata().name());
    env.put("GPUGEN_ENVIRONMENT", cluster.metadata().environment().orElse(""));
    env.put("GPUGEN_REGIONS", region);
    env.putIfAbsent("GPUGEN_STATES", "pending,running");
    // An explicit file that does not exist would fail; the environment alone is complete.
    return new InventoryConfigReader(env).read(Optional.empty());
  }

  /**
   * Every field comes from the cloud or the nodes (tags, host names, facts) and is hostile: control
   * and bidi characters are printed escaped, so a value cannot forge a line such as "in sync".
   */
  private static void text(
      PrintWriter out, String name, List<String> looked, List<Finding> findings) {
    out.println(
        "drift "
            + Printable.text(name)
            + " ("
            + Printable.text(String.join("; ", looked))
            + "): "
            + (findings.isEmpty() ? "in sync" : findings.size() + " difference(s)"));
    for (Finding f : findings) {
      out.printf(
          "%-5s  %-12s  %-19s  %-15s  expected %s, found %s%n",
          Printable.text(f.level()),
          f.pool().isEmpty() ? "-" : Printable.text(f.pool()),
          f.host().isEmpty() ? "-" : Printable.text(f.host()),
          Printable.text(f.kind()),
          Printable.text(f.expected()),
          Printable.text(f.actual()));
      if (!f.fix().isEmpty()) {
        out.println("       fix: " + Printable.text(f.fix()));
      }
    }
  }

  private static void json(
      PrintWriter out, String name, List<String> looked, List<Finding> findings) {
    List<Object> list = new ArrayList<>();
    for (Finding f : findings) {
      Map<String, Object> o = new TreeMap<>();
      o.put("level", f.level());
      o.put("pool", f.pool());
      o.put("host", f.host());
      o.put("kind", f.kind());
      o.put("expected", f.expected());
      o.put("actual", f.actual());
      if (!f.fix().isEmpty()) {
        o.put("fix", f.fix());
      }
      list.add(o);
    }
    Map<String, Object> doc = new TreeMap<>();
    doc.put("cluster", name);
    doc.put("looked", looked);
    doc.put("inSync", findings.isEmpty());
    doc.put("findings", list);
    out.println(Json.writeAscii(doc));
  }
}
