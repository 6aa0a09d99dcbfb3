"""Sample figure for the tour: tumour volume over time in two arms, drawn with the paper-figures style."""

import matplotlib.pyplot as plt

plt.style.use("__NATURE_MPLSTYLE__")
MM = 1 / 25.4
days = [0, 3, 6, 9, 12, 15]
control = [100, 160, 250, 390, 560, 800]
treated = [100, 130, 170, 210, 240, 260]

fig, ax = plt.subplots(figsize=(89 * MM, 60 * MM))
ax.plot(days, control, marker="o", label="Vehicle (n = 8)")
ax.plot(days, treated, marker="s", label="Drug (n = 8)")
ax.set_xlabel("Days after treatment")
ax.set_ylabel("Tumour volume (mm³)")
ax.legend()
fig.savefig("fig1.pdf")
fig.savefig("fig1.png", dpi=300)
