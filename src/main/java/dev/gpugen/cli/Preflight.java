package dev.gpugen.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.plan.VcpuNeeds;
import dev.gpugen.spec.Printable;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Everything {@code gpugen up} needs from the machine and the account, checked before its first
 * step and reported all at once: the tools of every step (and what the connection and the cloud
 * need besides: session-manager-plugin and boto3 for SSM, gcloud's GKE auth plugin), credentials
 * that answer, and on AWS the account's EC2 vCPU quotas against what the spec needs. A run that
 * would fail after {@code terraform apply} started billing fails here, having changed nothing.
 */
final class Preflight {
  /** How long one check command may take (a credential chain can wait on a network). */
  private static final Duration CHECK_TIMEOUT = Duration.ofSeconds(60);

  /**
   * The interpreter {@code ansible-playbook --version} names: {@code python version = 3.11.2 (...)
   * (PATH)}.
   */
  private static final Pattern ANSIBLE_PYTHON =
      Pattern.compile("(?m)^\\s*python version = .*\\((/[^()]+)\\)\\s*$");

  private static final JsonFactory JSON = new JsonFactory();

  /**
   * What was found: the tools by name, what stops the run (empty when it may start), and notes that
   * do not stop it (a quota gpugen could not read).
   */
  record Result(Map<String, Path> tools, List<String> problems, List<String> notes) {}

  private Preflight() {}

  /** The tools a run of these steps needs beyond the steps' own. */
  static Set<String> extraTools(ClusterPlan plan, boolean up) {
    Set<String> tools = new LinkedHashSet<>();
    if (plan.aws()) {
      tools.add("aws"); // the credential and quota checks
      if (up && plan.ssmConnection() && !plan.pullMode()) {
        // community.aws.aws_ssm starts AWS's plugin for every connection.
        tools.add("session-manager-plugin");
      }
    } else if (plan.gke()) {
      tools.add("gcloud");
      // The kubeconfig get-credentials writes runs it for every call plays 03-05 make.
      tools.add("gke-gcloud-auth-plugin");
    }
    return tools;
  }

  /** Checks everything a run of {@code steps} needs; {@code up} adds the quotas and SSM. */
  static Result check(
      ClusterPlan plan, List<Deploy.Step> steps, Deploy.Context context, boolean up) {
    Map<String, Path> tools = new HashMap<>();
    List<String> problems = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    Set<String> names = new LinkedHashSet<>(Deploy.toolsOf(steps));
    names.addAll(extraTools(plan, up));
    for (String name : names) {
      Optional<Path> p = Deploy.onPath(name, context);
      if (p.isPresent()) {
        tools.put(name, p.get());
      } else {
        problems.add(name + " is not on PATH (" + Deploy.INSTALL.get(name) + ")");
      }
    }
    if (up) {
      // Every up runs ansible-playbook (plays 00-05); its banner (or ansible's, the same) names
      // ansible-core and the Python that runs it.
      String banner =
          Optional.ofNullable(tools.get("ansible-playbook"))
              .or(() -> Optional.ofNullable(tools.get("ansible")))
              .map(tool -> run(tool, context, "--version").out())
              .orElse("");
      ansibleCore(banner).ifPresent(problems::add);
      if (plan.aws() && plan.ssmConnection() && !plan.pullMode() && tools.containsKey("ansible")) {
        boto3(banner, context).ifPresent(problems::add);
      }
    }
    if (up && NextSteps.privateEndpoint(plan.spec())) {
      // Said before anything bills: from outside the VPC the apply succeeds and play 03 then
      // waits on an API that never answers.
      notes.add(
          "the EKS API endpoint is private: plays 03-05 reach it only from a machine in the VPC"
              + " (the bastion, an instance reached with SSM, or over a VPN); run gpugen up there,"
              + " or from outside it stops at play 03 with the cluster and nodes billing");
    }
    if (plan.aws() && tools.containsKey("aws")) {
      String region = plan.spec().cloud().region().orElseThrow();
      Outcome who =
          run(
              tools.get("aws"),
              context,
              "sts",
              "get-caller-identity",
              "--region",
              region,
              "--output",
              "json");
      if (who.code() != 0) {
        problems.add(
            "AWS credentials do not answer: aws sts get-caller-identity exited "
                + who.code()
                + who.firstErrorLine().map(l -> " (" + l + ")").orElse("")
                + "; sign in (aws sso login, AWS_PROFILE or keys) for "
                + region);
      } else {
        Optional<String> arn = field(who.out(), "Arn");
        arn.ifPresent(a -> notes.add("AWS identity: " + Printable.text(a)));
        if (up) {
          quotas(plan, tools.get("aws"), context, region, problems, notes);
        }
      }
    }
    if (plan.gke() && tools.containsKey("gcloud")) {
      Outcome account = run(tools.get("gcloud"), context, "auth", "print-access-token", "--quiet");
      if (account.code() != 0) {
        problems.add(
            "gcloud has no account that answers: gcloud auth print-access-token exited "
                + account.code()
                + account.firstErrorLine().map(l -> " (" + l + ")").orElse("")
                + "; run gcloud auth login (gcloud container clusters get-credentials uses it)");
      }
      Outcome adc =
          run(
              tools.get("gcloud"),
              context,
              "auth",
              "application-default",
              "print-access-token",
              "--quiet");
      if (adc.code() != 0) {
        problems.add(
            "no application-default credentials: gcloud auth application-default"
                + " print-access-token exited "
                + adc.code()
                + adc.firstErrorLine().map(l -> " (" + l + ")").orElse("")
                + "; run gcloud auth application-default login (Terraform's google provider uses"
                + " them)");
      }
    }
    return new Result(tools, problems, notes);
  }

  /**
   * An ansible-core older than the roles' {@code min_ansible_version} (2.14, in each role's
   * meta/main.yml), which Ansible itself does not enforce: the plays would fail after the apply,
   * with the nodes billing. A banner gpugen cannot read is no problem: the plays will tell.
   */
  static Optional<String> ansibleCore(String banner) {
    Matcher m = ANSIBLE_CORE.matcher(banner);
    if (!m.find()) {
      return Optional.empty();
    }
    int major = Integer.parseInt(m.group(1));
    int minor = Integer.parseInt(m.group(2));
    if (major > 2 || (major == 2 && minor >= MIN_ANSIBLE_MINOR)) {
      return Optional.empty();
    }
    return Optional.of(
        "ansible-core "
            + m.group(1)
            + "."
            + m.group(2)
            + " is older than 2."
            + MIN_ANSIBLE_MINOR
            + ", which the rendered roles need (min_ansible_version in their meta/main.yml);"
            + " install a newer one (Debian 12's ansible-core is 2.14; or pipx install"
            + " ansible-core)");
  }

  /**
   * The banner's first line, "ansible-playbook [core 2.14.18]" (ansible's reads "ansible [core
   * ..."), or "ansible-playbook 2.9.27" before ansible-core.
   */
  private static final Pattern ANSIBLE_CORE =
      Pattern.compile("(?m)^ansible(?:-playbook)? (?:\\[core )?(\\d{1,3})\\.(\\d{1,3})\\b");

  private static final int MIN_ANSIBLE_MINOR = 14;

  /**
   * boto3 and botocore in the Python that runs Ansible: the aws_ssm connection imports them there.
   * The interpreter is the one {@code ansible-playbook --version} names.
   */
  private static Optional<String> boto3(String banner, Deploy.Context context) {
    Matcher m = ANSIBLE_PYTHON.matcher(banner);
    Optional<Path> python =
        m.find() ? Optional.of(Path.of(m.group(1))) : Deploy.onPath("python3", context);
    if (python.isEmpty()) {
      return Optional.of(
          "cannot tell which Python runs Ansible (ansible-playbook --version names none, and"
              + " python3 is"
              + " not on PATH) to check boto3, which the SSM connection needs");
    }
    Outcome imported = run(python.get(), context, "-c", "import boto3, botocore");
    if (imported.code() == 0) {
      return Optional.empty();
    }
    return Optional.of(
        "boto3 is missing from "
            + Printable.text(python.get().toString())
            + ", the Python that runs Ansible: the SSM connection (community.aws.aws_ssm) imports"
            + " it; install python3-boto3, or pip install boto3 into that Python");
  }

  /**
   * Compares each quota the spec needs with the account's value in the Region ({@code aws
   * service-quotas get-service-quota}): a short quota stops the run; one gpugen cannot read (no
   * permission) is a note.
   */
  private static void quotas(
      ClusterPlan plan,
      Path aws,
      Deploy.Context context,
      String region,
      List<String> problems,
      List<String> notes) {
    VcpuNeeds needs = VcpuNeeds.of(plan);
    for (VcpuNeeds.Need n : needs.needs()) {
      String code = n.quota().code();
      Outcome q =
          run(
              aws,
              context,
              "service-quotas",
              "get-service-quota",
              "--service-code",
              "ec2",
              "--quota-code",
              code,
              "--region",
              region,
              "--output",
              "json");
      Optional<Double> value = q.code() == 0 ? quotaValue(q.out()) : Optional.empty();
      String what = code + " (" + n.quota().name() + ")";
      if (value.isEmpty()) {
        notes.add(
            "could not read quota "
                + what
                + (q.code() != 0
                    ? ": aws exited "
                        + q.code()
                        + q.firstErrorLine().map(l -> " (" + l + ")").orElse("")
                    : ": no Quota.Value in the answer")
                + "; the spec needs "
                + n.vcpus()
                + " vCPUs of it in "
                + region
                + ": check it in the Service Quotas console");
        continue;
      }
      if (value.get() < n.vcpus()) {
        problems.add(
            "quota "
                + what
                + " is "
                + format(value.get())
                + " vCPUs in "
                + region
                + ", the spec needs "
                + n.vcpus()
                + " ("
                + String.join(", ", n.pools())
                + "), not counting what else runs in the account: request more with aws"
                + " service-quotas request-service-quota-increase --service-code ec2 --quota-code "
                + code
                + " --desired-value "
                + n.vcpus()
                + " --region "
                + region
                + ", or lower the count");
      }
    }
    for (String pool : needs.unchecked()) {
      notes.add("no quota checked for pool " + pool + ": gpugen knows no vCPU quota for its type");
    }
  }

  private static String format(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
  }

  /** {@code Quota.Value} of a get-service-quota answer. */
  static Optional<Double> quotaValue(String json) {
    try (JsonParser p = JSON.createParser(json)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return Optional.empty();
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        JsonToken t = p.nextToken();
        if (name.equals("Quota") && t == JsonToken.START_OBJECT) {
          while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken v = p.nextToken();
            if (field.equals("Value") && v.isNumeric()) {
              return Optional.of(p.getDoubleValue());
            }
            p.skipChildren();
          }
          return Optional.empty();
        }
        p.skipChildren();
      }
    } catch (IOException e) {
      return Optional.empty();
    }
    return Optional.empty();
  }

  /** A top-level string field of a JSON object, e.g. {@code Arn} of get-caller-identity. */
  private static Optional<String> field(String json, String name) {
    try (JsonParser p = JSON.createParser(json)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return Optional.empty();
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        JsonToken t = p.nextToken();
        if (field.equals(name) && t == JsonToken.VALUE_STRING) {
          return Optional.of(p.getText());
        }
        p.skipChildren();
      }
    } catch (IOException e) {
      return Optional.empty();
    }
    return Optional.empty();
  }

  /** A check command's exit code and output. */
  record Outcome(int code, String out, String err) {
    /** The first non-blank line of stderr, escaped for the terminal and shortened. */
    Optional<String> firstErrorLine() {
      return err.lines()
          .map(String::strip)
          .filter(l -> !l.isEmpty())
          .findFirst()
          .map(l -> Printable.text(l.length() > 200 ? l.substring(0, 200) + "..." : l));
    }
  }

  /** Runs a check: no stdin, output captured (never shown: a token stays unprinted), bounded. */
  private static Outcome run(Path tool, Deploy.Context context, String... args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(tool.toString());
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().clear();
    pb.environment().putAll(context.env());
    pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    try {
      Process p = pb.start();
      Capture out = new Capture(p.getInputStream());
      Capture err = new Capture(p.getErrorStream());
      if (!p.waitFor(CHECK_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return new Outcome(124, "", "no answer within " + CHECK_TIMEOUT.toSeconds() + " s");
      }
      return new Outcome(p.exitValue(), out.text(), err.text());
    } catch (IOException e) {
      return new Outcome(127, "", "cannot run " + tool + ": " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Outcome(130, "", "interrupted");
    }
  }

  /** Reads a stream on its own thread, keeping at most 1 MiB. */
  private static final class Capture {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final Thread thread;

    Capture(InputStream in) {
      thread =
          new Thread(
              () -> {
                byte[] buf = new byte[8192];
                try (in) {
                  int k;
                  while ((k = in.read(buf)) >= 0) {
                    synchronized (bytes) {
                      if (bytes.size() < (1 << 20)) {
                        bytes.write(buf, 0, k);
                      }
                    }
                  }
                } catch (IOException e) {
                  // The process died: what was read is what there is.
                }
              });
      thread.setDaemon(true);
      thread.start();
    }

    String text() throws InterruptedException {
      thread.join(5000);
      synchronized (bytes) {
        return bytes.toString(StandardCharsets.UTF_8);
      }
    }
  }

  /** Prints the notes, and the problems with what to do; true when the run may start. */
  static boolean report(String command, Result r, PrintWriter err) {
    for (String note : r.notes()) {
      err.println(command + ": " + note);
    }
    if (!r.problems().isEmpty()) {
      err.println(
          command
              + ": nothing was run; "
              + (r.problems().size() == 1 ? "fix this first:" : "fix these first:"));
      for (String p : r.problems()) {
        err.println("  - " + p);
      }
    }
    err.flush();
    return r.problems().isEmpty();
  }
}
