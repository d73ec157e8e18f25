import WundercastCore
import CGPS
