# Reads redundancy-report's output and prints, for the loop(s) at `at`
# (function:line), the largest number of compared instance pairs and
# whether it lies in [lo, hi]; the loss line's instances-dropped follows.
#   awk -v at=grid:12 -v lo=45 -v hi=115 -f pairs-in-range.awk
/^loop / { cur = $2 }
/cross-loop:/ && cur == at {
    for (i = 1; i <= NF; i++)
        if ($i ~ /^pairs=/) { n = substr($i, 7) + 0; if (n > best) best = n }
}
/^loss:/ { loss = $0 }
END {
    printf "%s pairs=%d %s\n", at, best, (best >= lo && best <= hi) ? "in-range" : "OUT-OF-RANGE"
    print loss
}
