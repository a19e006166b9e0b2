package dev.gpugen.inventory;

import java.util.Objects;

/**
 * An extra group per value of a chosen tag, as {@code amazon.aws.aws_ec2}'s {@code keyed_groups}
 * with a {@code tags} key: {@code {"tag": "team", "prefix": "team"}} puts a host tagged {@code
 * team=ml} in group {@code team_ml}.
 *
 * @param tag the tag key whose value names the group
 * @param prefix the group name's prefix (joined with {@code _})
 */
public record KeyedGroup(String tag, String prefix) {
  public KeyedGroup {
    Objects.requireNonNull(tag, "tag");
    Objects.requireNonNull(prefix, "prefix");
  }
}
