package dev.gpugen.cli;

import dev.gpugen.failure.EnvironmentFailure;
import dev.gpugen.failure.Failure;
import dev.gpugen.inventory.Ec2InstanceSource;
import dev.gpugen.inventory.HostFacts;
import dev.gpugen.inventory.InstanceSource;
import dev.gpugen.inventory.InventoryBuilder;
import dev.gpugen.inventory.InventoryConfig;
import dev.gpugen.inventory.InventoryConfigReader;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.plan.PoolPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Printable;
import dev.gpugen.spec.ShellCommand;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The steps of {@code gpugen up} and {@code gpugen down}: the same commands the render's next steps
 * list, run in order in the render's folder, each printed before it runs; the first that fails
 * stops the run ({@link ExitCodes#STEP_FAILED}, naming the tool's own exit code). Every step is
 * idempotent (Galaxy skips installed collections, Terraform applies only what is missing, the
 * playbooks change nothing on a configured node), so running again picks up where a failed run
 * stopped.
 */
final class Deploy {
  /**
   * What the commands read from outside: injected so tests need no AWS and no real tools.
   *
   * @param heartbeat the longest time a wait stays silent: the waits print their progress when it
   *     changes and at least this often
   */
  record Context(
      Map<String, String> env,
      InstanceSource.Factory sources,
      Duration poll,
      Duration waitLimit,
      Duration heartbeat) {
    Context {
      env = Map.copyOf(env);
      Objects.requireNonNull(sources, "sources");
      Objects.requireNonNull(poll, "poll");
      Objects.requireNonNull(waitLimit, "waitLimit");
      Objects.requireNonNull(heartbeat, "heartbeat");
    }

    static Context system() {
      return new Context(
          System.getenv(),
          config -> Ec2InstanceSource.withDefaultCredentials(config),
          Duration.ofSeconds(15),
          Duration.ofMinutes(30),
          Duration.ofSeconds(30));
    }
  }

  /** A step: a program run in a folder, the wait for the nodes, or the wait until they answer. */
  sealed interface Step permits Run, WaitForNodes, WaitForConnection {}

  /**
   * A program, by its name on PATH, with its arguments, run in {@code dir}, with {@code env} added
   * to the caller's environment; {@code note}, when not empty, says on the step line why this
   * command runs.
   */
  record Run(String tool, List<String> args, Path dir, Map<String, String> env, String note)
      implements Step {
    Run {
      args = List.copyOf(args);
      env = Map.copyOf(new TreeMap<>(env));
      Objects.requireNonNull(note, "note");
    }

    Run(String tool, List<String> args, Path dir, Map<String, String> env) {
      this(tool, args, dir, env, "");
    }

    Run(String tool, List<String> args, Path dir) {
      this(tool, args, dir, Map.of());
    }

    Run noted(String why) {
      return new Run(tool, args, dir, env, why);
    }

    /** Whether this is Terraform's apply, after which created resources may exist. */
    boolean applies() {
      return tool.equals("terraform") && args.contains("apply");
    }

    /** The command as a person would paste it: every word quoted for the shell. */
    String shown() {
      StringBuilder b = new StringBuilder();
      if (!dir.equals(Path.of("."))) {
        b.append("(")
            .append(ShellCommand.of("cd", ShellCommand.path(dir.toString())))
            .append(" && ");
      }
      // An assignment word: the name is gpugen's own, the value is quoted like any word.
      new TreeMap<>(env)
          .forEach((k, v) -> b.append(k).append('=').append(ShellCommand.word(v)).append(' '));
      List<String> words = new ArrayList<>(List.of(tool));
      words.addAll(args);
      b.append(ShellCommand.of(words));
      return b.append(dir.equals(Path.of(".")) ? "" : ")").toString();
    }
  }

  /** Until every node of the spec is running (EC2, through the inventory's own query). */
  record WaitForNodes() implements Step {}

  /**
   * Until every node answers through the chosen connection: Ansible's {@code wait_for_connection}
   * on every node, each answer counted per pool as Ansible prints it.
   */
  record WaitForConnection(Run run, Duration timeout) implements Step {}

  /** Where each tool comes from, for the message when one is missing. */
  static final Map<String, String> INSTALL =
      Map.of(
          "terraform",
          "https://developer.hashicorp.com/terraform/install",
          "ansible-playbook",
          "https://docs.ansible.com/ansible/latest/installation_guide/",
          "ansible-galaxy",
          "https://docs.ansible.com/ansible/latest/installation_guide/",
          "ansible",
          "https://docs.ansible.com/ansible/latest/installation_guide/",
          "aws",
          "https://docs.aws.amazon.com/cli/latest/userguide/getting-started-install.html",
          "session-manager-plugin",
          "https://docs.aws.amazon.com/systems-manager/latest/userguide/session-manager-working-with-install-plugin.html",
          "gcloud",
          "https://cloud.google.com/sdk/docs/install",
          "gke-gcloud-auth-plugin",
          "https://cloud.google.com/kubernetes-engine/docs/how-to/cluster-access-for-kubectl#install_plugin");

  private Deploy() {}

  /** The kubeconfig plays 03-05 read: in the ansible folder's git-ignored {@code .state}. */
  static Path kubeconfigFile(Path folder) {
    return folder.resolve("ansible").resolve(".state").resolve("kubeconfig");
  }

  /** Why the playbook step is {@code upgrade-driver.yml}, on its step line. */
  static final String DRIVER_UPGRADE_NOTE =
      "the driver changed and no gpugen up has rolled it out yet: upgrade-driver.yml, a batch of"
          + " nodes at a time, not site.yml, which never replaces a loaded driver";

  /** The steps of {@code gpugen up} for this plan, rendered into {@code folder}. */
  static List<Step> up(ClusterPlan plan, Path folder, boolean autoApprove) {
    return up(plan, folder, autoApprove, false);
  }

  /**
   * The steps of {@code gpugen up}; with {@code driverUpgrade} (the folder's manifest records a
   * driver change not rolled out yet) the playbook is {@code upgrade-driver.yml}, not {@code
   * site.yml}.
   */
  static List<Step> up(ClusterPlan plan, Path folder, boolean autoApprove, boolean driverUpgrade) {
    return up(plan, folder, autoApprove, driverUpgrade, List.of());
  }

  /**
   * As {@link #up(ClusterPlan, Path, boolean, boolean)}; the main root's apply replaces {@code
   * replace} (-replace=ADDRESS each: gpugen up --allow-replace re-records the node settings in
   * state, NodeSettings.recordAddresses).
   */
  static List<Step> up(
      ClusterPlan plan,
      Path folder,
      boolean autoApprove,
      boolean driverUpgrade,
      List<String> replace) {
    // GKE's operator and pull mode's boot never load a driver from the playbook: no upgrade play.
    Run upgradeDriver =
        driverUpgrade && !plan.gke() && !plan.pullMode()
            ? new Run(
                    "ansible-playbook",
                    plan.aws()
                        ? List.of("-i", "gpugen-inventory", "upgrade-driver.yml")
                        : List.of("upgrade-driver.yml"),
                    folder.resolve("ansible"))
                .noted(DRIVER_UPGRADE_NOTE)
            : null;
    Path tf = folder.resolve("terraform");
    Path ansible = folder.resolve("ansible");
    List<Step> steps = new ArrayList<>();
    if (!plan.pullMode()) {
      // Before Terraform: a Galaxy failure after the apply would leave a half-built cluster
      // billing while the collections are sorted out.
      steps.add(
          new Run(
              "ansible-galaxy",
              List.of("collection", "install", "-r", "requirements.yml"),
              ansible));
    }
    if (!plan.staticHosts()) {
      steps.add(
          new Run("terraform", List.of("-chdir=" + tf, "init", "-input=false"), Path.of(".")));
      List<String> apply = new ArrayList<>(List.of("-chdir=" + tf, "apply", "-input=false"));
      if (autoApprove) {
        apply.add("-auto-approve");
      }
      replace.forEach(a -> apply.add("-replace=" + a));
      steps.add(new Run("terraform", apply, Path.of(".")));
    }
    if (plan.gke()) {
      // The second root module, once the cluster exists: what runs on it (its providers read the
      // cluster through a data source).
      steps.addAll(terraformApply(tf.resolve(IN_CLUSTER), autoApprove));
    }
    kubeconfig(plan, folder).ifPresent(steps::add);
    if (plan.aws()) {
      steps.add(new WaitForNodes());
      if (plan.pullMode()) {
        // The nodes run the plays themselves at boot and report through their tags.
        return steps;
      }
      // Reachable through the chosen connection (SSM or SSH), not only running.
      steps.add(
          new WaitForConnection(
              new Run(
                  "ansible",
                  List.of(
                      "gpu_nodes",
                      "-i",
                      "gpugen-inventory",
                      "-m",
                      "ansible.builtin.wait_for_connection",
                      "-a",
                      "timeout=600"),
                  ansible),
              Duration.ofSeconds(600)));
      steps.add(
          upgradeDriver != null
              ? upgradeDriver
              : new Run(
                  "ansible-playbook", List.of("-i", "gpugen-inventory", "site.yml"), ansible));
    } else if (plan.gke()) {
      // gke_checks reads $KUBECONFIG: the file the get-credentials step wrote.
      steps.add(
          new Run(
              "ansible-playbook",
              List.of("site.yml"),
              ansible,
              Map.of("KUBECONFIG", kubeconfigFile(folder).toAbsolutePath().toString())));
    } else {
      steps.add(
          upgradeDriver != null
              ? upgradeDriver
              : new Run("ansible-playbook", List.of("site.yml"), ansible));
    }
    return steps;
  }

  /**
   * The kubeconfig plays 03-05 read, written into the ansible folder's git-ignored {@code .state}
   * for the cluster Terraform just created or found. EKS: the AWS CLI (its name is Terraform's
   * {@code local.name}; the Terraform output {@code kubeconfig_command} prints the same command;
   * the file holds no secret: the CLI's {@code aws eks get-token} exec entry signs a token from the
   * caller's credentials at each use,
   * https://docs.aws.amazon.com/cli/latest/reference/eks/update-kubeconfig.html). GKE: gcloud, for
   * the zonal cluster in the spec's zone, with {@code KUBECONFIG} naming the file (its exec entry
   * runs gke-gcloud-auth-plugin,
   * https://cloud.google.com/sdk/gcloud/reference/container/clusters/get-credentials).
   */
  static Optional<Run> kubeconfig(ClusterPlan plan, Path folder) {
    ClusterSpec.Cloud cloud = plan.spec().cloud();
    if (plan.gke()) {
      return Optional.of(
          new Run(
              "gcloud",
              List.of(
                  "container",
                  "clusters",
                  "get-credentials",
                  cloud.gke().orElseThrow().cluster(),
                  "--zone",
                  cloud.availabilityZone().orElseThrow(),
                  "--project",
                  cloud.project().orElseThrow()),
              Path.of("."),
              Map.of("KUBECONFIG", kubeconfigFile(folder).toString())));
    }
    if (!plan.aws() || plan.spec().kubernetes().filter(ClusterSpec.Kubernetes::eks).isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new Run(
            "aws",
            List.of(
                "eks",
                "update-kubeconfig",
                "--region",
                cloud.region().orElseThrow(),
                "--name",
                plan.qualifiedName(),
                "--kubeconfig",
                kubeconfigFile(folder).toString()),
            Path.of(".")));
  }

  /** GKE's second root module, under terraform/: what runs on the cluster. */
  static final String IN_CLUSTER = "in-cluster";

  private static List<Step> terraformApply(Path tf, boolean autoApprove) {
    List<String> apply = new ArrayList<>(List.of("-chdir=" + tf, "apply", "-input=false"));
    if (autoApprove) {
      apply.add("-auto-approve");
    }
    return List.of(
        new Run("terraform", List.of("-chdir=" + tf, "init", "-input=false"), Path.of(".")),
        new Run("terraform", apply, Path.of(".")));
  }

  /**
   * The steps of {@code gpugen down}: Terraform destroys what it created; on GKE what runs on the
   * cluster first (terraform/in-cluster/, while the cluster still answers), then the cluster.
   */
  /**
   * The destroy of the render's roots; {@code targets} (ClusterPlan.downTargets) limits the main
   * root's destroy to them while storage.retain keeps data, all of it when empty.
   */
  static List<Step> down(Path folder, boolean autoApprove, List<String> targets) {
    Path tf = folder.resolve("terraform");
    List<Step> steps = new ArrayList<>();
    if (java.nio.file.Files.isDirectory(tf.resolve(IN_CLUSTER))) {
      steps.addAll(terraformDestroy(tf.resolve(IN_CLUSTER), autoApprove, List.of()));
    }
    steps.addAll(terraformDestroy(tf, autoApprove, targets));
    return List.copyOf(steps);
  }

  private static List<Step> terraformDestroy(Path tf, boolean autoApprove, List<String> targets) {
    List<String> destroy = new ArrayList<>(List.of("-chdir=" + tf, "destroy", "-input=false"));
    for (String t : targets) {
      destroy.add("-target=" + t);
    }
    if (autoApprove) {
      destroy.add("-auto-approve");
    }
    return List.of(
        new Run("terraform", List.of("-chdir=" + tf, "init", "-input=false"), Path.of(".")),
        new Run("terraform", destroy, Path.of(".")));
  }

  /** The name of every tool the steps run, in order. */
  static Set<String> toolsOf(List<Step> steps) {
    Set<String> names = new LinkedHashSet<>();
    for (Step s : steps) {
      if (s instanceof Run r) {
        names.add(r.tool());
      } else if (s instanceof WaitForConnection w) {
        names.add(w.run().tool());
      }
    }
    return names;
  }

  /**
   * Every tool the steps run, found on the context's PATH; a missing one is refused before anything
   * runs, naming it and where to get it.
   */
  static Map<String, Path> tools(List<Step> steps, Context context, String command) {
    Map<String, Path> found = new HashMap<>();
    List<String> missing = new ArrayList<>();
    for (String name : toolsOf(steps)) {
      Optional<Path> p = onPath(name, context);
      if (p.isPresent()) {
        found.put(name, p.get());
      } else {
        missing.add(name + " (" + INSTALL.get(name) + ")");
      }
    }
    if (!missing.isEmpty()) {
      throw new EnvironmentFailure(
          command
              + " needs "
              + String.join(", ", missing)
              + " on PATH; nothing was run. Install it, or run the steps gpugen render prints"
              + " by hand");
    }
    return found;
  }

  /** {@code name} on the context's PATH, if it is there. */
  static Optional<Path> onPath(String name, Context context) {
    for (String d : context.env().getOrDefault("PATH", "").split(":")) {
      if (!d.isEmpty()
          && Files.isExecutable(Path.of(d, name))
          && !Files.isDirectory(Path.of(d, name))) {
        return Optional.of(Path.of(d, name));
      }
    }
    return Optional.empty();
  }

  /**
   * Runs the steps in order; returns 0, or {@link ExitCodes#STEP_FAILED} after saying which step
   * failed, the tool's own exit code and that a re-run resumes.
   */
  static int run(
      String command,
      List<Step> steps,
      Map<String, Path> tools,
      ClusterPlan plan,
      Path folder,
      Context context,
      PrintWriter out,
      PrintWriter err) {
    Map<String, String> env = new HashMap<>(context.env());
    ownJar().ifPresent(jar -> env.putIfAbsent("GPUGEN_JAR", jar.toString()));
    Fleet fleet = new Fleet(plan);
    int n = 0;
    for (Step step : steps) {
      n++;
      String where = command + ": step " + n + "/" + steps.size();
      Run r;
      Consumer<String> lines = line -> {};
      Optional<Heartbeat.Ticker> ticker = Optional.empty();
      if (step instanceof WaitForNodes) {
        say(err, where + ": wait until every node of the spec is running");
        try {
          waitForNodes(plan, folder, context, fleet, err);
        } catch (Failure e) {
          // After the apply: what Terraform created exists (and is billed) whatever went wrong.
          say(
              err,
              where
                  + " failed: "
                  + e.getMessage()
                  + "; the resources Terraform created exist: run "
                  + command
                  + " again, or gpugen down. gpugen exits "
                  + ExitCodes.STEP_FAILED
                  + ": a step failed");
          return ExitCodes.STEP_FAILED;
        }
        continue;
      } else if (step instanceof WaitForConnection w) {
        r = w.run();
        Connections answers = new Connections(fleet, context, w.timeout(), err);
        lines = answers::line;
        ticker = Optional.of(answers.ticker());
      } else {
        r = (Run) step;
      }
      say(err, where + ": " + r.shown() + (r.note().isEmpty() ? "" : "   (" + r.note() + ")"));
      int code;
      try {
        if (step instanceof WaitForConnection) {
          lines.accept(""); // the 0/N line before the first answer
        }
        ticker.ifPresent(Heartbeat.Ticker::start);
        code = exec(r, tools.get(r.tool()), env, out, err, lines);
      } finally {
        ticker.ifPresent(Heartbeat.Ticker::stop);
      }
      if (code != 0) {
        say(
            err,
            where
                + " failed: "
                + r.tool()
                + " exited "
                + code
                + (r.applies()
                    ? "; resources it created before the failure may exist and are billed: run "
                        + command
                        + " again once the cause is fixed (the finished steps change nothing the"
                        + " second time), or gpugen down to delete them. gpugen exits "
                    : "; fix the cause and run "
                        + command
                        + " again (the finished steps change nothing the second time). gpugen"
                        + " exits ")
                + ExitCodes.STEP_FAILED
                + ": a step failed");
        return ExitCodes.STEP_FAILED;
      }
    }
    return ExitCodes.OK;
  }

  private static void say(PrintWriter err, String line) {
    synchronized (err) {
      err.println(line);
      err.flush();
    }
  }

  private static int exec(
      Run r,
      Path tool,
      Map<String, String> env,
      PrintWriter out,
      PrintWriter err,
      Consumer<String> lines) {
    List<String> cmd = new ArrayList<>();
    cmd.add(tool.toString());
    cmd.addAll(r.args());
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(r.dir().toFile());
    pb.environment().clear();
    pb.environment().putAll(env);
    pb.environment().putAll(r.env());
    // Terraform's confirmation prompt reads the terminal: stdin stays the user's.
    pb.redirectInput(ProcessBuilder.Redirect.INHERIT);
    try {
      Process p = pb.start();
      Thread o = pump(p.getInputStream(), out, lines);
      Thread e = pump(p.getErrorStream(), err, line -> {});
      int code = p.waitFor();
      o.join();
      e.join();
      return code;
    } catch (IOException e) {
      throw new EnvironmentFailure("cannot run " + tool + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new EnvironmentFailure("interrupted while " + r.tool() + " ran", e);
    }
  }

  /**
   * Copies a stream to {@code to} as it arrives (a prompt without a newline, Terraform's "Enter a
   * value:", shows at once) and hands each complete line to {@code lines}.
   */
  private static Thread pump(InputStream in, PrintWriter to, Consumer<String> lines) {
    Thread t =
        new Thread(
            () -> {
              byte[] buf = new byte[8192];
              StringBuilder line = new StringBuilder();
              try (in) {
                int k;
                while ((k = in.read(buf)) >= 0) {
                  String text = new String(buf, 0, k, StandardCharsets.UTF_8);
                  synchronized (to) {
                    to.write(text);
                    to.flush();
                  }
                  for (int i = 0; i < text.length(); i++) {
                    char c = text.charAt(i);
                    if (c == '\n') {
                      lines.accept(line.toString());
                      line.setLength(0);
                    } else if (line.length() < 4096) {
                      line.append(c);
                    }
                  }
                }
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            });
    t.setDaemon(true);
    t.start();
    return t;
  }

  /** Which inventory host belongs to which pool, as the EC2 wait last saw it. */
  static final class Fleet {
    private final ClusterPlan plan;
    private final Map<String, String> poolOfHost = new LinkedHashMap<>();

    Fleet(ClusterPlan plan) {
      this.plan = plan;
    }

    synchronized void saw(Map<String, List<String>> groups) {
      poolOfHost.clear();
      for (PoolPlan p : plan.pools()) {
        groups.getOrDefault(p.group(), List.of()).forEach(h -> poolOfHost.put(h, p.name()));
      }
    }

    synchronized Optional<String> pool(String host) {
      return Optional.ofNullable(poolOfHost.get(host));
    }

    /** {@code N/M WHAT (pool n/m, ...)} for the hosts counted per pool. */
    synchronized String progress(Map<String, Integer> done, String what) {
      int total = 0;
      int expected = 0;
      List<String> parts = new ArrayList<>();
      for (PoolPlan p : plan.pools()) {
        int want = p.pool().count();
        int have = Math.min(done.getOrDefault(p.name(), 0), want);
        total += have;
        expected += want;
        parts.add(p.name() + " " + have + "/" + want);
      }
      return total + "/" + expected + " " + what + " (" + String.join(", ", parts) + ")";
    }
  }

  /**
   * Counts the nodes {@code wait_for_connection} reports as answering ({@code HOST | SUCCESS}, the
   * ad-hoc output), prints the count per pool when it changes, and at least every heartbeat.
   */
  private static final class Connections {
    private static final Pattern RESULT =
        Pattern.compile("^(\\S+) \\| (SUCCESS|UNREACHABLE!|FAILED!)");
    private final Fleet fleet;
    private final Map<String, Integer> answered = new HashMap<>();
    private final Heartbeat heartbeat;
    private final long deadline;
    private final PrintWriter err;

    Connections(Fleet fleet, Context context, Duration timeout, PrintWriter err) {
      this.fleet = fleet;
      this.heartbeat = new Heartbeat(context.heartbeat());
      this.deadline = System.nanoTime() + timeout.toNanos();
      this.err = err;
    }

    /** A line of Ansible's output; the empty line (before the first) prints the starting count. */
    void line(String line) {
      Matcher m = RESULT.matcher(line);
      if (m.find() && m.group(2).equals("SUCCESS")) {
        synchronized (this) {
          answered.merge(fleet.pool(m.group(1)).orElse("?"), 1, Integer::sum);
        }
        tick();
      } else if (line.isEmpty()) {
        tick();
      }
    }

    synchronized void tick() {
      String line = fleet.progress(answered, "nodes answer");
      long now = System.nanoTime();
      if (heartbeat.due(line, now)) {
        say(err, line + ", " + Heartbeat.left(deadline - now));
      }
    }

    Heartbeat.Ticker ticker() {
      return new Heartbeat.Ticker(heartbeat.interval(), this::tick);
    }
  }

  /**
   * Polls EC2 the way gpugen-inventory asks it (the rendered settings, the gpugen tags, running
   * instances) until every pool has its count, printing {@code N/M nodes running (pool n/m, ...), T
   * left} on stderr when the count changes and at least every heartbeat, for at most the context's
   * wait limit.
   */
  private static void waitForNodes(
      ClusterPlan plan, Path folder, Context context, Fleet fleet, PrintWriter err) {
    long deadline = System.nanoTime() + context.waitLimit().toNanos();
    Heartbeat heartbeat = new Heartbeat(context.heartbeat());
    while (true) {
      Map<String, Integer> running = new HashMap<>();
      int ready = 0;
      int expected = 0;
      try {
        Map<String, String> env = new HashMap<>(context.env());
        env.put("GPUGEN_CACHE_TTL_SECONDS", "0");
        env.put("GPUGEN_STATES", "running");
        InventoryConfig config =
            new InventoryConfigReader(env)
                .read(
                    Optional.of(
                        folder
                            .resolve("ansible")
                            .resolve(InventoryConfigReader.DEFAULT_FILE_NAME)));
        List<HostFacts> hosts = new ArrayList<>();
        for (String region : config.regions()) {
          hosts.addAll(context.sources().create(config).describe(region));
        }
        var inventory = InventoryBuilder.build(config, hosts).inventory();
        fleet.saw(inventory.groups());
        for (PoolPlan p : plan.pools()) {
          int members = inventory.groups().getOrDefault(p.group(), List.of()).size();
          running.put(p.name(), members);
          ready += Math.min(members, p.pool().count());
          expected += p.pool().count();
        }
      } catch (Failure e) {
        throw e.prefixed("cannot ask EC2 for the nodes: ");
      }
      String line = fleet.progress(running, "nodes running");
      long now = System.nanoTime();
      if (heartbeat.due(line, now)) {
        say(err, line + ", " + Heartbeat.left(deadline - now));
      }
      if (ready >= expected) {
        return;
      }
      if (now > deadline) {
        throw new EnvironmentFailure(
            line
                + " after "
                + context.waitLimit().toSeconds()
                + " s: see the instances' state in EC2 (capacity, spot, quotas), then run gpugen up"
                + " again");
      }
      try {
        Thread.sleep(context.poll().toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new EnvironmentFailure("interrupted while waiting", e);
      }
    }
  }

  /** The jar this gpugen runs from, for the inventory script (GPUGEN_JAR) of the playbook run. */
  private static Optional<Path> ownJar() {
    try {
      var source = Deploy.class.getProtectionDomain().getCodeSource();
      if (source == null) {
        return Optional.empty();
      }
      Path p = Path.of(source.getLocation().toURI());
      return p.toString().endsWith(".jar") ? Optional.of(p) : Optional.empty();
    } catch (java.net.URISyntaxException | SecurityException e) {
      return Optional.empty();
    }
  }

  /** A line of outside text, escaped for the terminal. */
  static String printable(String s) {
    return Printable.text(s);
  }
}
