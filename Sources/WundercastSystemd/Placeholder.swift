import WundercastCore
import CSystemd
