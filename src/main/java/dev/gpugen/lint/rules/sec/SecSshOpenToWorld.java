package dev.gpugen.lint.rules.sec;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.Cidr;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/** SSH from 0.0.0.0/0 to GPU nodes is how clusters get cryptominers (CKV_AWS_24, AVD-AWS-0107). */
public final class SecSshOpenToWorld extends Rule {
  public SecSshOpenToWorld() {
    super(
        "sec-ssh-open-to-world",
        Severity.WARNING,
        "SSH is open to the whole internet",
        "network.sshIngressCidrs containing 0.0.0.0/0 (or any /0), or ranges that together cover more"
            + " than a /8 (0.0.0.0/1 plus 128.0.0.0/1 is the whole internet in two pieces), opens port 22 of every GPU"
            + " node to the internet; scanners find such nodes within minutes. checkov CKV_AWS_24 and"
            + " trivy AVD-AWS-0107 flag it. List your office or bastion CIDRs, or leave the list empty"
            + " and reach the nodes through SSM Session Manager. It is a warning, not an error, because"
            + " a spec may ask for it on purpose (a short-lived lab); run with --fail-on warning in CI"
            + " to refuse it."
            + " Source: https://docs.aws.amazon.com/vpc/latest/userguide/vpc-security-best-practices.html");
  }

  /** No office or bastion range is larger than a /8; a union above it is "the internet". */
  static final long MAX_ADDRESSES = 1L << 24;

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    ClusterSpec spec = plan.spec();
    List<String> cidrs = spec.network().sshIngressCidrs();
    boolean reported = false;
    for (int i = 0; i < cidrs.size(); i++) {
      if (cidrs.get(i).endsWith("/0")) {
        reported = true;
        findings.report(
            SpecPath.of("network", "sshIngressCidrs", i),
            "network.sshIngressCidrs["
                + i
                + "] "
                + cidrs.get(i)
                + " opens SSH to the whole internet",
            "list the CIDRs of your office or bastion, or use [] and SSM Session Manager");
      }
    }
    if (reported || cidrs.isEmpty()) {
      return;
    }
    // The internet in pieces (0.0.0.0/1 and 128.0.0.0/1): judge the union of the IPv4 ranges.
    List<long[]> ranges = new ArrayList<>();
    for (String c : cidrs) {
      if (!c.contains(":")) {
        Cidr r = Cidr.parse(c).canonical();
        ranges.add(new long[] {r.network(), r.network() + (1L << (32 - r.bits()))});
      }
    }
    ranges.sort(Comparator.comparingLong(r -> r[0]));
    long covered = 0;
    long end = -1;
    for (long[] r : ranges) {
      long from = Math.max(r[0], end);
      if (r[1] > from) {
        covered += r[1] - from;
      }
      end = Math.max(end, r[1]);
    }
    if (covered > MAX_ADDRESSES) {
      findings.report(
          SpecPath.of("network", "sshIngressCidrs"),
          "network.sshIngressCidrs together open SSH to "
              + (covered == 1L << 32
                  ? "the whole internet"
                  : String.format(
                      Locale.ROOT, "%.1f%% of the IPv4 internet", covered * 100.0 / (1L << 32)))
              + " ("
              + covered
              + " addresses, more than a /8)",
          "list the CIDRs of your office or bastion, or use [] and SSM Session Manager");
    }
  }
}
