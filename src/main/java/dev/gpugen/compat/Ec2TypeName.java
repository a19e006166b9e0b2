package dev.gpugen.compat;

import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An EC2 instance type name taken apart: series letters, generation and options, then the size
 * ({@code p5en.48xlarge}: series p, generation 5, options en, size 48xlarge), as AWS names them
 * (https://docs.aws.amazon.com/ec2/latest/instancetypes/instance-type-names.html).
 *
 * @param series the leading letters: {@code p}, {@code g}, {@code gr}, {@code m}, {@code trn}...
 * @param family everything before the dot: {@code p5en}, {@code p6-b200}
 * @param size after the dot: {@code 48xlarge}, {@code metal-48xl}
 */
public record Ec2TypeName(String series, String family, String size) {
  private static final Pattern NAME =
      Pattern.compile(
          "([a-z]+)([0-9]+[a-z0-9-]*)\\."
              + "(nano|micro|small|medium|large|xlarge|[0-9]+xlarge|metal|metal-[0-9]+xl)");

  /**
   * The series of EC2's NVIDIA GPU types: P, G and Gr (https://aws.amazon.com/ec2/instance-types/).
   */
  private static final List<String> NVIDIA_SERIES = List.of("p", "g", "gr");

  /** The parts of {@code name}, or empty when it is not shaped like an EC2 instance type. */
  public static Optional<Ec2TypeName> parse(String name) {
    Matcher m = NAME.matcher(name);
    if (!m.matches()) {
      return Optional.empty();
    }
    return Optional.of(new Ec2TypeName(m.group(1), m.group(1) + m.group(2), m.group(3)));
  }

  /** Whether the series is one EC2 sells NVIDIA GPUs in (its AMD and Xilinx types aside). */
  public boolean nvidiaSeries() {
    return NVIDIA_SERIES.contains(series);
  }
}
