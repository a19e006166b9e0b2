package dev.gpugen.lint;

import dev.gpugen.lint.rules.AwsFabricRule;
import dev.gpugen.lint.rules.CidrHostBitsRule;
import dev.gpugen.lint.rules.CloudLocationRule;
import dev.gpugen.lint.rules.DuplicatePoolRule;
import dev.gpugen.lint.rules.EfaUnsupportedInstanceRule;
import dev.gpugen.lint.rules.NetworkSourceRule;
import dev.gpugen.lint.rules.SshOpenToWorldRule;
import dev.gpugen.lint.rules.SubnetOutsideVpcRule;
import java.util.List;
import java.util.Optional;

/** Every rule gpugen runs, listed explicitly (no scanning): adding a rule is one line here. */
public final class Rules {
  private static final List<Rule> ALL =
      List.of(
          new DuplicatePoolRule(),
          new CloudLocationRule(),
          new NetworkSourceRule(),
          new CidrHostBitsRule(),
          new SubnetOutsideVpcRule(),
          new SshOpenToWorldRule(),
          new AwsFabricRule(),
          new EfaUnsupportedInstanceRule());

  private Rules() {}

  public static List<Rule> all() {
    return ALL;
  }

  public static Optional<Rule> byId(String id) {
    return ALL.stream().filter(r -> r.id().equals(id)).findFirst();
  }
}
