package dev.gpugen.compat;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An EC2 vCPU quota of a Region (Service Quotas, service code {@code ec2}): the vCPUs of running
 * instances, or of open and running spot requests, of some instance families, by market.
 *
 * @param code the quota code, e.g. {@code L-417A185B}
 * @param name the quota's name in Service Quotas, e.g. {@code Running On-Demand P instances}
 * @param market {@code on-demand} or {@code spot}
 * @param families the instance families it counts: a family's letters ({@code p}, {@code gr}) or
 *     its letters and generation ({@code p5}) where the quota is per generation
 * @param sources the URLs the values come from
 */
public record Ec2VcpuQuota(
    String code, String name, String market, List<String> families, List<String> sources)
    implements CompatRow {
  /** The letters and generation of an instance type's family: {@code p5en.48xlarge} is p, 5. */
  private static final Pattern FAMILY = Pattern.compile("([a-z]+)([0-9]+)[a-z0-9-]*\\..+");

  public Ec2VcpuQuota {
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(name, "name");
    if (!List.of("on-demand", "spot").contains(market)) {
      throw new IllegalArgumentException(
          code + ": market must be on-demand or spot, not " + market);
    }
    families = List.copyOf(families);
    sources = List.copyOf(sources);
    if (families.isEmpty()) {
      throw new IllegalArgumentException(code + ": families is empty");
    }
  }

  /** Whether an instance of {@code instanceType} bought on {@code market} counts against it. */
  public boolean counts(String instanceType, String market) {
    if (!this.market.equals(market)) {
      return false;
    }
    Matcher m = FAMILY.matcher(instanceType.toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      return false;
    }
    return families.contains(m.group(1)) || families.contains(m.group(1) + m.group(2));
  }

  @Override
  public String key() {
    return code;
  }
}
