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
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The steps of {@code gpugen up} and {@code gpugen down}: the same commands the render's next steps
 * list, run in order in the render's folder, each printed before it runs; the first that fails
 * stops the run with its exit code. Every step is idempotent (Terraform applies only what is
 * missing, Galaxy skips installed collections, the playbooks change nothing on a configured node),
 * so running again picks up where a failed run stopped.
 */
final class Deploy {
  /** What the commands read from outside: injected so tests need no AWS and no real tools. */
  record Context(
      Map<String, String> env, InstanceSource.Factory sources, Duration poll, Duration waitLimit) {
    Context {
      env = Map.copyOf(env);
      Objects.requireNonNull(sources, "sources");
      Objects.requireNonNull(poll, "poll");
      Objects.requireNonNull(waitLimit, "waitLimit");
    }

    static Context system() {
      return new Context(
          System.getenv(),
          config -> Ec2InstanceSource.withDefaultCredentials(config),
          Duration.ofSeconds(15),
          Duration.ofMinutes(30));
    }
  }

  /** A step: a program run in a folder, or the wait for the nodes. */
  sealed interface Step permits Run, WaitForNodes {}

  /** A program, by its name on PATH, with its arguments, run in {@code dir}. */
  record Run(String tool, List<String> args, Path dir) implements Step {
    Run {
      args = List.copyOf(args);
    }

    /** The command as a person would paste it: every word quoted for the shell. */
    String shown() {
      List<String> words = new ArrayList<>(List.of(tool));
      words.addAll(args);
      return dir.equals(Path.of("."))
          ? ShellCommand.of(words)
          : "(" + ShellCommand.of("cd", dir.toString()) + " && " + ShellCommand.of(words) + ")";
    }
  }

  /** Until every node of the spec is running (EC2, through the inventory's own query). */
  record WaitForNodes() implements Step {}

  /** Where each tool comes from, for the message when one is missing. */
  private static final Map<String, String> INSTALL =
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
          "https://docs.aws.amazon.com/cli/latest/userguide/getting-started-install.html");

  private Deploy() {}

  /** The steps of {@code gpugen up} for this plan, rendered into {@code folder}. */
  static List<Step> up(ClusterPlan plan, Path folder, boolean autoApprove) {
    Path tf = folder.resolve("terraform");
    Path ansible = folder.resolve("ansible");
    List<Step> steps = new ArrayList<>();
    if (!plan.staticHosts()) {
      steps.add(
          new Run("terraform", List.of("-chdir=" + tf, "init", "-input=false"), Path.of(".")));
      List<String> apply = new ArrayList<>(List.of("-chdir=" + tf, "apply", "-input=false"));
      if (autoApprove) {
        apply.add("-auto-approve");
      }
      steps.add(new Run("terraform", apply, Path.of(".")));
    }
    kubeconfig(plan, folder).ifPresent(steps::add);
    if (plan.aws()) {
      steps.add(new WaitForNodes());
      if (plan.pullMode()) {
        // The nodes run the plays themselves at boot and report through their tags.
        return steps;
      }
    }
    steps.add(
        new Run(
            "ansible-galaxy", List.of("collection", "install", "-r", "requirements.yml"), ansible));
    if (plan.aws()) {
      // Reachable through the chosen connection (SSM or SSH), not only running.
      steps.add(
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
              ansible));
      steps.add(
          new Run("ansible-playbook", List.of("-i", "gpugen-inventory", "site.yml"), ansible));
    } else {
      steps.add(new Run("ansible-playbook", List.of("site.yml"), ansible));
    }
    return steps;
  }

  /**
   * EKS: the kubeconfig plays 03-05 read ({@code kubernetes_checks_kubeconfig}, in the ansible
   * folder's git-ignored {@code .state}), written by the AWS CLI for the cluster Terraform just
   * created (its name is Terraform's {@code local.name}; the Terraform output {@code
   * kubeconfig_command} prints the same command). The file holds no secret: the CLI's {@code aws
   * eks get-token} exec entry signs a token from the caller's credentials at each use
   * (https://docs.aws.amazon.com/cli/latest/reference/eks/update-kubeconfig.html).
   */
  static Optional<Run> kubeconfig(ClusterPlan plan, Path folder) {
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
                plan.spec().cloud().region().orElseThrow(),
                "--name",
                plan.qualifiedName(),
                "--kubeconfig",
                folder.resolve("ansible").resolve(".state").resolve("kubeconfig").toString()),
            Path.of(".")));
  }

  /** The steps of {@code gpugen down}: Terraform destroys what it created. */
  static List<Step> down(Path folder, boolean autoApprove) {
    Path tf = folder.resolve("terraform");
    List<String> destroy = new ArrayList<>(List.of("-chdir=" + tf, "destroy", "-input=false"));
    if (autoApprove) {
      destroy.add("-auto-approve");
    }
    return List.of(
        new Run("terraform", List.of("-chdir=" + tf, "init", "-input=false"), Path.of(".")),
        new Run("terraform", destroy, Path.of(".")));
  }

  /**
   * Every tool the steps run, found on the context's PATH; a missing one is refused before anything
   * runs, naming it and where to get it.
   */
  static Map<String, Path> tools(List<Step> steps, Context context, String command) {
    Set<String> names = new LinkedHashSet<>();
    steps.forEach(
        s -> {
          if (s instanceof Run r) {
            names.add(r.tool());
          }
        });
    Map<String, Path> found = new HashMap<>();
    List<String> missing = new ArrayList<>();
    for (String name : names) {
      Optional<Path> p = onPath(name, context.env().getOrDefault("PATH", ""));
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

  private static Optional<Path> onPath(String name, String path) {
    for (String d : path.split(":")) {
      if (!d.isEmpty()
          && Files.isExecutable(Path.of(d, name))
          && !Files.isDirectory(Path.of(d, name))) {
        return Optional.of(Path.of(d, name));
      }
    }
    return Optional.empty();
  }

  /**
   * Runs the steps in order; returns 0, or the exit code of the first step that failed (after
   * saying which it was and that a re-run resumes).
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
    int n = 0;
    for (Step step : steps) {
      n++;
      String where = command + ": step " + n + "/" + steps.size();
      if (step instanceof Run r) {
        err.println(where + ": " + r.shown());
        err.flush();
        int code = exec(r, tools.get(r.tool()), env, out, err);
        if (code != 0) {
          err.println(
              where
                  + " failed: "
                  + r.tool()
                  + " exited "
                  + code
                  + "; fix the cause and run "
                  + command
                  + " again (the finished steps change nothing the second time)");
          err.flush();
          return code;
        }
      } else {
        err.println(where + ": wait until every node of the spec is running");
        err.flush();
        waitForNodes(plan, folder, context, err);
      }
    }
    return ExitCodes.OK;
  }

  private static int exec(
      Run r, Path tool, Map<String, String> env, PrintWriter out, PrintWriter err) {
    List<String> cmd = new ArrayList<>();
    cmd.add(tool.toString());
    cmd.addAll(r.args());
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(r.dir().toFile());
    pb.environment().clear();
    pb.environment().putAll(env);
    // Terraform's confirmation prompt reads the terminal: stdin stays the user's.
    pb.redirectInput(ProcessBuilder.Redirect.INHERIT);
    try {
      Process p = pb.start();
      Thread o = pump(p.getInputStream(), out);
      Thread e = pump(p.getErrorStream(), err);
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

  private static Thread pump(InputStream in, PrintWriter to) {
    Thread t =
        new Thread(
            () -> {
              byte[] buf = new byte[8192];
              try (in) {
                int k;
                while ((k = in.read(buf)) >= 0) {
                  synchronized (to) {
                    to.write(new String(buf, 0, k, StandardCharsets.UTF_8));
                    to.flush();
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

  /**
   * Polls EC2 the way gpugen-inventory asks it (the rendered settings, the gpugen tags, running
   * instances) until every pool has its count, printing {@code N/M nodes ready} on stderr, for at
   * most the context's wait limit.
   */
  private static void waitForNodes(
      ClusterPlan plan, Path folder, Context context, PrintWriter err) {
    int expected = plan.pools().stream().mapToInt(p -> p.pool().count()).sum();
    long deadline = System.nanoTime() + context.waitLimit().toNanos();
    String last = "";
    while (true) {
      int ready;
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
        ready = 0;
        for (PoolPlan p : plan.pools()) {
          List<String> members = inventory.groups().getOrDefault(p.group(), List.of());
          ready += Math.min(members.size(), p.pool().count());
        }
      } catch (Failure e) {
        throw e.prefixed("cannot ask EC2 for the nodes: ");
      }
      String line = ready + "/" + expected + " nodes ready";
      if (!line.equals(last)) {
        err.println(line);
        err.flush();
        last = line;
      }
      if (ready >= expected) {
        return;
      }
      if (System.nanoTime() > deadline) {
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
}
